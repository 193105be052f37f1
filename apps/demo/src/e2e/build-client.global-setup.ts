/**
 * Builds the client once for every browser test of the run, into a temporary folder, with vite's
 * `build()` API and the same config as `pnpm build`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Folder of the client built for this run. */
    demoClientDir: string;
  }
}

/** Builds the client, provides its folder as `demoClientDir`, and removes it after the run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const outDir = await mkdtemp(join(tmpdir(), 'a2ui-demo-client-'));
  await build({
    configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 4096 },
  });
  project.provide('demoClientDir', outDir);
  return () => rm(outDir, { recursive: true, force: true });
}
