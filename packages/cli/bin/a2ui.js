#!/usr/bin/env node
// The `a2ui` command. Installed from the tarball it runs the build (`dist/bin.js`). In the
// repository, where `src/` is present, it runs the TypeScript source through tsx, so
// `pnpm exec a2ui …` works without a build and never runs a stale one. A child process is needed
// there: the source export condition can only be set when Node starts.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
if (existsSync(source)) {
  const tsx = import.meta.resolve('tsx');
  const child = spawnSync(
    process.execPath,
    ['--conditions=@a2ui-ts/source', '--import', tsx, source, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  if (child.error) throw child.error;
  process.exitCode = child.status ?? 1;
} else {
  await import('../dist/bin.js');
}
