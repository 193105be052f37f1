/**
 * The README runs as printed, from this package's folder: the quick-start server (port 0 instead
 * of 8787) in a child process, and the quick-start client against it, whose frontend tool answers.
 */
import { readReadmeBlocks, runReadmeServerAndClient } from '@a2ui-ts/core/testing/node';
import { expect, it } from 'vitest';

const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));

it('marks every block that imports a package, so that each one runs here', () => {
  expect(readme.unmarked).toEqual([]);
});

it('runs the quick-start client against the quick-start server: the frontend tool answers', async () => {
  await runReadmeServerAndClient(
    readme,
    {
      cwd: new URL('..', import.meta.url),
      server: { replace: [['port: 8787,', 'port: 0,']], ready: /^AG-UI agent on (http:\/\/\S+)$/ },
      client: { url: 'http://127.0.0.1:8787/agent' },
    },
    ({ client }) => {
      // The child inherits this process's environment, so its time zone is this one.
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      expect(client).toMatchObject({ exitCode: 0, stdout: `the agent answered: ${timeZone}\n` });
    },
  );
});
