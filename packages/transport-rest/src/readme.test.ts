/**
 * The README runs as printed: its quick-start server (on port 0 instead of 8787) in a child
 * process, its curl walkthrough in bash against it — output compared with the README's, but for
 * the connection id — and its quick-start client against it.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { markedCodeBlocks } from '@a2ui-ts/core/testing/node';
import { afterAll, beforeAll, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const blocks = markedCodeBlocks(
  readFileSync(new URL('../README.md', import.meta.url), 'utf8'),
  'readme-test',
);
const DOC_ID = 'k3yQ2m0JcN1xV8fR4tL6pA';

/** The code block after `<!-- readme-test: name -->`. */
function block(name: string): string {
  const text = blocks.get(name);
  if (text === undefined) throw new Error(`README.md has no readme-test block "${name}".`);
  return text;
}

// Inside the package (gitignored), so that its imports resolve as the README says they do.
const scratch = `${packageDir}artifacts/readme`;
const node = (file: string) => [
  '--conditions=@a2ui-ts/source',
  '--import',
  'tsx',
  `${scratch}/${file}`,
];
let server: ChildProcess | undefined;
let base: string;

beforeAll(async () => {
  mkdirSync(scratch, { recursive: true });
  const code = block('server');
  expect(code).toContain('port: 8787 }');
  writeFileSync(`${scratch}/server.mts`, code.replace('port: 8787 }', 'port: 0 }'));
  server = spawn(process.execPath, node('server.mts'), {
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    server!.once('exit', (code) => reject(new Error(`the README server exited with ${code}`)));
    createInterface({ input: server!.stdout! }).once('line', resolve);
  });
  base = line.match(/on (http:\/\/\S+)$/)![1]!;
});
afterAll(() => {
  server?.kill();
});

it('runs the curl walkthrough exactly as printed, and prints what the README says', async () => {
  const { stdout } = await run('bash', ['-c', block('curl')], {
    env: { ...process.env, BASE: base },
  });
  const id = (JSON.parse(stdout.split('\n')[0]!) as { connectionId: string }).connectionId;
  expect(stdout.replaceAll(id, DOC_ID)).toBe(block('curl-output'));
});

it('runs the quick-start client against the quick-start server', async () => {
  const code = block('client');
  expect(code).toContain("'http://127.0.0.1:8787/a2ui'");
  writeFileSync(`${scratch}/client.mts`, code.replace('http://127.0.0.1:8787/a2ui', base));
  const { stdout } = await run(process.execPath, node('client.mts'), { cwd: packageDir });
  expect(stdout).toBe('the turn: Working on submit…\nthe push: Done\n');
});
