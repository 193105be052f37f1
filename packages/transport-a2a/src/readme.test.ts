/**
 * The README runs as printed, from this package's folder: the quick-start server (port 0 instead
 * of 10002) in a child process, and the quick-start client against it.
 */
import {
  eventually,
  readReadmeBlocks,
  runReadmeBlock,
  type StartedReadmeBlock,
  startReadmeBlock,
} from '@a2ui-ts/core/testing/node';
import { afterAll, beforeAll, expect, it } from 'vitest';

const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));
const cwd = new URL('..', import.meta.url);

let server: StartedReadmeBlock | undefined;
beforeAll(async () => {
  server = await startReadmeBlock(readme.block('server'), {
    cwd,
    fileName: 'server.mts',
    replace: [['port: 10002 }', 'port: 0 }']],
    ready: /^A2A agent: (http:\/\/\S+)$/,
  });
});
afterAll(() => server?.stop());

it('marks every block that imports a package, so that each one runs here', () => {
  expect(readme.unmarked).toEqual([]);
});

it('runs the quick-start client against the quick-start server', async () => {
  const result = await runReadmeBlock(readme.block('client'), {
    cwd,
    fileName: 'client.mts',
    replace: [['http://127.0.0.1:10002/agents/tables', server!.ready[1]!]],
  });
  expect(result).toMatchObject({ exitCode: 0, stdout: 'submit\n' });
  await eventually(() => server!.stdout().includes('the user wrote: a table for two\n'));
});
