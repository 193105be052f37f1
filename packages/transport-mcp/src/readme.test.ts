/**
 * The README runs as printed: its quick-start server (on port 0 instead of 8787) in a child
 * process, its quick-start client and the SDK stock-client block against it — each from this
 * package's folder as the README says — with the output the README shows.
 */
import {
  readReadmeBlocks,
  runReadmeBlock,
  type StartedReadmeBlock,
  startReadmeBlock,
} from '@a2ui-ts/core/testing/node';
import { afterAll, beforeAll, expect, it } from 'vitest';

const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));
const cwd = new URL('..', import.meta.url);
const PRINTED_URL = 'http://127.0.0.1:8787/mcp';

let server: StartedReadmeBlock | undefined;
let url: string;

beforeAll(async () => {
  server = await startReadmeBlock(readme.block('server'), {
    cwd,
    fileName: 'server.mts',
    replace: [['port: 8787 }', 'port: 0 }']],
    ready: /on (http:\/\/\S+)$/,
  });
  url = server.ready[1]!;
});
afterAll(() => server?.stop());

it('marks every block that imports a package, so that each one runs here', () => {
  expect(readme.unmarked).toEqual([]);
});

it('runs the quick-start client against the quick-start server', async () => {
  const result = await runReadmeBlock(readme.block('client'), {
    cwd,
    fileName: 'client.mts',
    replace: [[PRINTED_URL, url]],
  });
  expect(result).toMatchObject({ exitCode: 0, stdout: 'Done: submit\n' });
});

it('runs the stock SDK client and prints what the README says', async () => {
  const result = await runReadmeBlock(readme.block('stock'), {
    cwd,
    fileName: 'stock.mts',
    replace: [[PRINTED_URL, url]],
  });
  expect(result).toMatchObject({ exitCode: 0, stdout: readme.block('stock-output') });
});
