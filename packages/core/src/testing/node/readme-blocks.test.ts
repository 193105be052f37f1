import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  readReadmeBlocks,
  runReadmeBlock,
  runReadmeServerAndClient,
  startReadmeBlock,
  typecheckReadmeBlocks,
} from './readme-blocks.js';

const dir = mkdtempSync(join(tmpdir(), 'readme-blocks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A README with a quick-start pair: an HTTP server listening on `listen` and a client that prints
 * its answer.
 */
function writePair(name: string, listen: string): URL {
  const pairFile = pathToFileURL(join(dir, name));
  writeFileSync(
    pairFile,
    [
      '<!-- readme-test: server -->',
      '```ts',
      "import { createServer } from 'node:http';",
      "const server = createServer((_request, response) => response.end('hello from the server'));",
      `server.listen(${listen});`,
      "server.on('listening', () => {",
      '  const { port } = server.address() as { port: number };',
      '  console.log(`on http://127.0.0.1:${port}/`);',
      '});',
      '```',
      '',
      '<!-- readme-test: client -->',
      '```ts',
      "console.log(await (await fetch('http://127.0.0.1:8787/')).text());",
      '```',
      '',
    ].join('\n'),
  );
  return pairFile;
}
const pairFile = writePair('PAIR.md', '8787');
/** The same pair, its server's port from `PORT` as a quick start prints it. */
const envPairFile = writePair('PAIR-ENV.md', 'Number(process.env.PORT ?? 8787)');

const file = pathToFileURL(join(dir, 'README.md'));
writeFileSync(
  file,
  [
    '# Package',
    '',
    '<!-- readme-test: hello -->',
    '```ts',
    "import { A2UI_VERSION } from '@a2ui-ts/core';",
    'console.log(A2UI_VERSION);',
    '```',
    '',
    '```ts',
    "import { createSomething } from '@a2ui-ts/forgotten';",
    '```',
    '',
    '```ts',
    '// a fragment without imports is not runnable on its own',
    '```',
    '',
    '<!-- readme-test: shell -->',
    '```sh',
    'echo "$GREETING"; exit 3',
    '```',
    '',
  ].join('\n'),
);
// Inside this package, so that the scripts resolve `@a2ui-ts/core` as a README reader's would.
const cwd = new URL('../../..', import.meta.url);

describe('readReadmeBlocks', () => {
  const readme = readReadmeBlocks(file);

  it('names the marked blocks and lists the runnable-looking ones that are not marked', () => {
    expect(readme.names).toEqual(['hello', 'shell']);
    expect(readme.unmarked).toEqual(["import { createSomething } from '@a2ui-ts/forgotten';"]);
    expect(() => readme.block('missing')).toThrow(/has no readme-test block "missing"/);
  });

  it('runs a TypeScript block through the source condition, and a shell block in bash', async () => {
    const hello = await runReadmeBlock(readme.block('hello'), { cwd, fileName: 'hello.mts' });
    expect(hello).toMatchObject({ exitCode: 0, stdout: 'v0.9\n' });
    const shell = await runReadmeBlock(readme.block('shell'), {
      cwd,
      fileName: 'shell.sh',
      env: { GREETING: 'hi' },
    });
    expect(shell).toMatchObject({ exitCode: 3, stdout: 'hi\n' });
  });

  it('refuses a replacement the block does not contain', async () => {
    await expect(
      runReadmeBlock(readme.block('hello'), { cwd, fileName: 'x.mts', replace: [['8787', '0']] }),
    ).rejects.toThrow(/no "8787" to replace/);
  });

  it('starts a block that keeps running, and says why one that exits early is not ready', async () => {
    const code = "console.log('listening on http://127.0.0.1:1'); setInterval(() => {}, 1000);";
    const started = await startReadmeBlock(code, {
      cwd,
      fileName: 'serve.mts',
      ready: /on (\S+)$/,
    });
    expect(started.ready[1]).toBe('http://127.0.0.1:1');
    await started.stop();
    await expect(
      startReadmeBlock("console.error('no port'); process.exit(2);", {
        cwd,
        fileName: 'fail.mts',
        ready: /on (\S+)$/,
      }),
    ).rejects.toThrow(/exited with 2 before it was ready:\nno port/);
  });

  it('runs a server block and a client block against it, and stops the server even when the check fails', async () => {
    const pair = readReadmeBlocks(pairFile);
    const options = {
      cwd,
      server: { replace: [['listen(8787)', 'listen(0)']] as const, ready: /^on (http:\/\/\S+)$/ },
      client: { url: 'http://127.0.0.1:8787/' },
    };
    let serverOutput = '';
    await runReadmeServerAndClient(pair, options, async ({ client, server }) => {
      expect(client).toMatchObject({ exitCode: 0, stdout: 'hello from the server\n' });
      serverOutput = server.stdout();
    });
    expect(serverOutput).toMatch(/^on http:\/\/127\.0\.0\.1:\d+\/\n$/);
    await expect(
      runReadmeServerAndClient(pair, options, () => {
        throw new Error('the check failed');
      }),
    ).rejects.toThrow('the check failed');
  });

  it('runs a server block that takes its port from env unchanged, with that env', async () => {
    const options = {
      cwd,
      server: { env: { PORT: '0' }, ready: /^on (http:\/\/\S+)$/ },
      client: { url: 'http://127.0.0.1:8787/' },
    };
    await runReadmeServerAndClient(readReadmeBlocks(envPairFile), options, ({ client, server }) => {
      expect(client).toMatchObject({ exitCode: 0, stdout: 'hello from the server\n' });
      expect(server.ready[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(server.ready[1]).not.toBe('http://127.0.0.1:8787/');
    });
  });

  it('typechecks blocks in one run: nothing for good code, the error for bad code', async () => {
    const output = await typecheckReadmeBlocks(
      {
        'good.ts':
          "import { A2UI_VERSION } from '@a2ui-ts/core';\nexport const v: string = A2UI_VERSION;\n",
        'bad.ts': "export const n: number = 'not a number';\n",
      },
      { cwd },
    );
    expect(output).toMatch(/bad\.ts\(1,14\): error TS2322/);
    expect(output).not.toMatch(/good\.ts/);
  });
});
