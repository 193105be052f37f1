import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import { SOURCE_CONDITIONS, testTimeouts } from '../../vitest.shared.js';

const require = createRequire(import.meta.url);

/**
 * The jsdom suite against React 18.3 (`pnpm test:react18`). Source files are aliased here; CJS
 * dependencies (Testing Library) are redirected by test/react18/resolve-react18.cjs.
 */
export default defineConfig({
  resolve: {
    conditions: SOURCE_CONDITIONS,
    alias: [
      { find: /^react$/, replacement: require.resolve('react18') },
      { find: /^react\/jsx-runtime$/, replacement: require.resolve('react18/jsx-runtime') },
      { find: /^react\/jsx-dev-runtime$/, replacement: require.resolve('react18/jsx-dev-runtime') },
      { find: /^react-dom$/, replacement: require.resolve('react-dom18') },
      { find: /^react-dom\/client$/, replacement: require.resolve('react-dom18/client') },
      { find: /^react-dom\/server$/, replacement: require.resolve('react-dom18/server.node') },
    ],
  },
  // Node-environment tests (server rendering) resolve through Vite's SSR environment.
  ssr: { resolve: { conditions: SOURCE_CONDITIONS } },
  test: {
    name: 'react-renderer-react18',
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    ...testTimeouts,
  },
});
