#!/usr/bin/env node
// The `a2ui-mcp-server` command: an example A2UI agent over MCP stdio, what a desktop MCP host
// launches. Installed from the tarball it runs the build (`dist/bin.js`); in the repository, the
// TypeScript source (see scripts/run-source-bin.js).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
if (existsSync(source)) {
  const { runSourceBin } = await import('../../../scripts/run-source-bin.js');
  runSourceBin(source);
} else {
  await import('../dist/bin.js');
}
