// Loaded with `node --require` by `pnpm test:react18`: every `require('react…')` in the test
// process (Testing Library, react-markdown, the renderer) gets React 18.3, installed as the
// `react18` / `react-dom18` npm aliases, so the suite proves the declared React 18 peer range.
const Module = require('node:module');

const targets = {
  react: 'react18',
  'react/jsx-runtime': 'react18/jsx-runtime',
  'react/jsx-dev-runtime': 'react18/jsx-dev-runtime',
  'react-dom': 'react-dom18',
  'react-dom/client': 'react-dom18/client',
  'react-dom/server': 'react-dom18/server.node',
  'react-dom/test-utils': 'react-dom18/test-utils',
};
const resolved = Object.fromEntries(
  Object.entries(targets).map(([request, target]) => [request, require.resolve(target)]),
);
const original = Module._resolveFilename;
Module._resolveFilename = function resolveReact18(request, ...rest) {
  return resolved[request] ?? original.call(this, request, ...rest);
};
