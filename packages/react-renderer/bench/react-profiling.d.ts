// react-dom/profiling has the same API as react-dom/client (with <Profiler> timings enabled).
declare module 'react-dom/profiling' {
  export { createRoot, hydrateRoot } from 'react-dom/client';
}
