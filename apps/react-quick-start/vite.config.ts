import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const appDir = dirname(fileURLToPath(import.meta.url));

/** Where `pnpm build` puts the page, and where `src/server.ts` serves it from. */
export const CLIENT_OUT_DIR = join(appDir, 'dist');

export default defineConfig({
  root: appDir,
  plugins: [react()],
  // Inside this repository the packages resolve to their TypeScript sources (and the stylesheet
  // to src/styles.css); an app using the published packages needs none of this.
  resolve: { conditions: ['@a2ui-ts/source', ...defaultClientConditions] },
  build: { outDir: CLIENT_OUT_DIR, emptyOutDir: true },
});
