import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'client/index': 'src/client/index.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  external: ['hono', '@hono/node-server', 'ws'],
});
