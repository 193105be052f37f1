/**
 * The README runs as printed, from this package's folder: the quick-start server unchanged in a
 * child process with `PORT=0` (so it listens on a free port and prints it), and the quick-start
 * client against the URL it printed. (Its plain EventSource recipe runs in Chromium in
 * `browser.test.ts`.)
 */
import { readReadmeBlocks, runReadmeServerAndClient } from '@a2ui-ts/core/testing/node';
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
      server: { env: { PORT: '0' }, ready: /^A2UI agent on (http:\/\/\S+)$/ },
      client: { url: 'http://127.0.0.1:8787/a2ui' },
    },
    ({ client, server }) => {
      // PORT was taken: the URL printed is the free port the server listens on, not the default.
      expect(server.ready[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/a2ui$/);
      expect(server.ready[1]).not.toBe('http://127.0.0.1:8787/a2ui');
      expect(client.exitCode, client.stderr).toBe(0);
      expect(client.stdout).toContain('open \n');
      expect(client.stdout).toContain("the agent answered: { last: 'submit' }\n");
    },
  );
});
