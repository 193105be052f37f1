#!/usr/bin/env node
// The `a2ui-mcp-server` command: an example A2UI agent over MCP stdio, what a desktop MCP host
// launches. Installed from the tarball it runs the build (`dist/bin.js`). In the repository,
// where `src/` is present, it runs the TypeScript source through tsx (the source export
// condition can only be set when Node starts, hence the child process, which inherits stdio).
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
