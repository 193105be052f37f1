import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    compile: 'src/compile.ts',
    examples: 'src/testing/example-streams.ts',
    'host/index': 'src/host/index.ts',
    'link/index': 'src/link/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/node/index': 'src/testing/node/index.ts',
  },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  external: ['vitest'],
});
