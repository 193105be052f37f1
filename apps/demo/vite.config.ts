import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

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
  plugins: [react()],
  resolve: {
    // Workspace packages resolve to their sources: no package build is needed to run the demo.
    conditions: ['@a2ui-ts/source', ...defaultClientConditions],
    alias: { '@a2ui-ts/react-renderer/styles.css': rendererStylesheet() },
  },
  build: {
    outDir: CLIENT_OUT_DIR,
    emptyOutDir: true,
    // One bundle on purpose: the demo is a single page served locally; the precompiled schema
    // validators of core are most of its weight.
    chunkSizeWarningLimit: 2048,
  },
});
