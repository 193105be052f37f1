/**
 * The README runs as printed, from this package's folder: the quick-start server (port 0 instead
 * of 10002) in a child process, and the quick-start client against it.
 */
import { eventually, readReadmeBlocks, runReadmeServerAndClient } from '@a2ui-ts/core/testing/node';
import { expect, it } from 'vitest';

const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));

it('marks every block that imports a package, so that each one runs here', () => {
  expect(readme.unmarked).toEqual([]);
});

it('runs the quick-start client against the quick-start server', async () => {
  await runReadmeServerAndClient(
    readme,
    {
      cwd: new URL('..', import.meta.url),
      server: { replace: [['port: 10002 }', 'port: 0 }']], ready: /^A2A agent: (http:\/\/\S+)$/ },
      client: { url: 'http://127.0.0.1:10002/agents/tables' },
    },
    async ({ client, server }) => {
      expect(client).toMatchObject({ exitCode: 0, stdout: 'submit\n' });
      await eventually(() => server.stdout().includes('the user wrote: a table for two\n'));
    },
  );
});
