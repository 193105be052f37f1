/**
 * The README runs as printed, from this package's folder: the quick-start server (port 0 instead
 * of 8787) in a child process, and the quick-start client against it, whose frontend tool answers.
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

let server: StartedReadmeBlock | undefined;
beforeAll(async () => {
  server = await startReadmeBlock(readme.block('server'), {
    cwd,
    fileName: 'server.mts',
    replace: [['port: 8787,', 'port: 0,']],
    ready: /^AG-UI agent on (http:\/\/\S+)$/,
  });
});
afterAll(() => server?.stop());

it('marks every block that imports a package, so that each one runs here', () => {
  expect(readme.unmarked).toEqual([]);
});

it('runs the quick-start client against the quick-start server: the frontend tool answers', async () => {
  const result = await runReadmeBlock(readme.block('client'), {
    cwd,
    fileName: 'client.mts',
    replace: [['http://127.0.0.1:8787/agent', server!.ready[1]!]],
  });
  // The child inherits this process's environment, so its time zone is this one.
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  expect(result).toMatchObject({ exitCode: 0, stdout: `the agent answered: ${timeZone}\n` });
});
