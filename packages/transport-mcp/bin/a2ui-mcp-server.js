#!/usr/bin/env node
// The `a2ui-mcp-server` command: an example A2UI agent over MCP stdio, what a desktop MCP host
// launches. Installed from the tarball it runs the build (`dist/bin.js`). In the repository,
// where `src/` is present, it runs the TypeScript source through tsx (the source export
// condition can only be set when Node starts, hence the child process, which inherits stdio).
// A host ends a server by closing its stdin, then by SIGTERM to the process it launched: this
// one, so the signal is passed on, or the child would outlive it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
if (existsSync(source)) {
  const tsx = import.meta.resolve('tsx');
  const child = spawn(
    process.execPath,
    ['--conditions=@a2ui-ts/source', '--import', tsx, source, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    throw error;
  });
  child.on('exit', (code) => {
    process.exitCode = code ?? 1;
  });
} else {
  await import('../dist/bin.js');
}
