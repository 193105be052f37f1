/**
 * The README runs as printed: its quick-start server unchanged in a child process with `PORT=0`
 * (so it listens on a free port and prints it), its curl walkthrough in bash against it — output compared with the README's, but for
 * the connection id — and its quick-start client and one-shot calls against it, each from this
 * package's folder as the README says.
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
const DOC_ID = 'k3yQ2m0JcN1xV8fR4tL6pA';
const PRINTED_URL = 'http://127.0.0.1:8787/a2ui';

let server: StartedReadmeBlock | undefined;
let base: string;

beforeAll(async () => {
  server = await startReadmeBlock(readme.block('server'), {
    cwd,
    fileName: 'server.mts',
    env: { PORT: '0' },
    ready: /^A2UI agent on (http:\/\/\S+)$/,
  });
  base = server.ready[1]!;
});
afterAll(() => server?.stop());

it('marks every block that imports a package, so that each one runs here', () => {
  expect(readme.unmarked).toEqual([]);
});

it('runs the quick-start server unchanged on the PORT it is given, and prints where it listens', () => {
  // PORT=0: the URL printed is the free port the server took, not the default.
  expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/a2ui$/);
  expect(base).not.toBe(PRINTED_URL);
});

it('runs the curl walkthrough exactly as printed, and prints what the README says', async () => {
  const result = await runReadmeBlock(readme.block('curl'), {
    cwd,
    fileName: 'curl.sh',
    env: { BASE: base },
  });
  expect(result.exitCode).toBe(0);
  const id = (JSON.parse(result.stdout.split('\n')[0]!) as { connectionId: string }).connectionId;
  expect(result.stdout.replaceAll(id, DOC_ID)).toBe(readme.block('curl-output'));
});

it('runs the quick-start client against the quick-start server', async () => {
  const result = await runReadmeBlock(readme.block('client'), {
    cwd,
    fileName: 'client.mts',
    replace: [[PRINTED_URL, base]],
  });
  expect(result).toMatchObject({
    exitCode: 0,
    stdout: 'the turn: Working on submit…\nthe push: Done\n',
  });
});

it('runs the one-shot calls against the quick-start server', async () => {
  const result = await runReadmeBlock(readme.block('one-shot'), {
    cwd,
    fileName: 'one-shot.mts',
    replace: [[PRINTED_URL, base]],
  });
  expect(result).toMatchObject({
    exitCode: 0,
    stdout:
      '4\n[{"version":"v0.9","updateDataModel":{"surfaceId":"main","path":"/status","value":"Done"}}]\n',
  });
});
