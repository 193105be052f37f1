import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const appDir = dirname(fileURLToPath(import.meta.url));

/**
 * The renderer's stylesheet. Its `./styles.css` export points at `dist/`, which exists only after
 * the package is built; the demo builds straight from workspace sources, so it falls back to the
 * source stylesheet the build copies.
 */
function rendererStylesheet(): string {
  const packageDir = dirname(
    createRequire(import.meta.url).resolve('@a2ui-ts/react-renderer/package.json'),
  );
  const built = join(packageDir, 'dist/styles.css');
  return existsSync(built) ? built : join(packageDir, 'src/styles.css');
}

/** Where the demo server expects the client: `apps/demo/dist/client`. */
export const CLIENT_OUT_DIR = join(appDir, 'dist/client');

export default defineConfig({
  root: join(appDir, 'src/client'),
  // Brotli and gzip copies of every text asset, which the demo server sends as they are
  // (`precompressed`): nothing crosses the wire uncompressed, and no request pays to compress.
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'] })],
  resolve: {
    // Workspace packages resolve to their sources: no package build is needed to run the demo.
    conditions: ['@a2ui-ts/source', ...defaultClientConditions],
    alias: { '@a2ui-ts/react-renderer/styles.css': rendererStylesheet() },
  },
  build: {
    outDir: CLIENT_OUT_DIR,
    emptyOutDir: true,
    // The entry is the page shell (React and the top bar); everything that speaks A2UI is a
    // chunk the shell requests at once (see src/client/app.tsx). The entry stays under 150 kB
    // gzip (checked by src/e2e/client-bundle.test.ts).
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The peers' SDKs the A2A and AG-UI transports run on are a chunk of their own, so the
          // A2UI half stays under the limit above and the SDKs are cached apart from our code.
          // Core's precompiled validators need no group: core imports each on first need (a
          // catalog's when a surface of it arrives, v0.8's schemas on the first v0.8 message), so
          // each is a chunk of its own (a group would also pull in what they share with core).
          groups: [
            {
              name: 'protocol-sdks',
              test: /[\\/]node_modules[\\/](?:@a2a-js|@ag-ui|@bufbuild|rxjs|zod|uuid|tslib|untruncate-json|compare-versions)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
