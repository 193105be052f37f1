/**
 * The README runs as printed, from this package's folder: the quick-start server (port 0 instead
 * of 8787) in a child process, and the quick-start client against it. (Its plain EventSource
 * recipe runs in Chromium in `browser.test.ts`.)
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
      server: { replace: [['port: 8787 }', 'port: 0 }']], ready: /^A2UI agent on (http:\/\/\S+)$/ },
      client: { url: 'http://127.0.0.1:8787/a2ui' },
    },
    ({ client }) => {
      expect(client.exitCode, client.stderr).toBe(0);
      expect(client.stdout).toContain('open \n');
      expect(client.stdout).toContain("the agent answered: { last: 'submit' }\n");
    },
  );
});
