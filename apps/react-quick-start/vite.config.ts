import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const appDir = dirname(fileURLToPath(import.meta.url));

/**
 * The chunk of one of core's precompiled schema validators (generated code, one file per version
 * and catalog): one chunk per protocol version, and v0.9's basic catalog apart from the rest of
 * v0.9, so that no chunk nears Vite's 500 kB warning. Anything else: `null` (not this group).
 */
function validatorChunk(moduleId: string): string | null {
  const file = /[\\/]validation[\\/]generated[\\/]([\w-]+)\.js$/.exec(moduleId)?.[1];
  if (file === undefined) return null;
  if (file.startsWith('v0-8')) return 'a2ui-validators-v0-8';
  if (file.startsWith('v1-0')) return 'a2ui-validators-v1-0';
  return file === 'basic' ? 'a2ui-validators-v0-9-basic' : 'a2ui-validators-v0-9';
}

/** Where `pnpm build` puts the page, and where `src/server.ts` serves it from. */
export const CLIENT_OUT_DIR = join(appDir, 'dist');

export default defineConfig({
  root: appDir,
  plugins: [react()],
  // Inside this repository the packages resolve to their TypeScript sources (and the stylesheet
  // to src/styles.css); an app using the published packages needs none of this.
  resolve: { conditions: ['@a2ui-ts/source', ...defaultClientConditions] },
  build: {
    outDir: CLIENT_OUT_DIR,
    emptyOutDir: true,
    // All of it loads at once (the page needs every part to render): the split keeps each chunk
    // under Vite's size warning and caches the parts that rarely change (validators, React)
    // apart from the page's own code.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: validatorChunk, debugName: 'a2ui-validators' },
            { name: 'react', test: /[\\/]node_modules[\\/](?:react|react-dom|scheduler)[\\/]/ },
            { name: 'vendor', test: /[\\/]node_modules[\\/]/ },
          ],
        },
      },
    },
  },
});
