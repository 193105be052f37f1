/**
 * The README runs as printed: its server (on port 0 instead of 5555) in a child process, its curl
 * walkthrough in bash against it (output compared but for `createdAt`), then its WebSocket client
 * its `createLavsClient` example and its live A2UI view.
 */
import {
  readReadmeBlocks,
  runReadmeBlock,
  runReadmeServerAndClient,
} from '@a2ui-ts/core/testing/node';
import { expect, it } from 'vitest';

const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));
const cwd = new URL('..', import.meta.url);
const PRINTED_URL = 'http://127.0.0.1:5555';

it('marks every block that imports a package, so that each one runs here', () => {
  expect(readme.unmarked).toEqual([]);
});

it('runs the curl walkthrough as printed, then the WebSocket client, printing what the README says', async () => {
  await runReadmeServerAndClient(
    readme,
    {
      cwd,
      server: { replace: [['port: 5555 }', 'port: 0 }']], ready: /on (http:\/\/\S+)$/ },
      // The walkthrough is the quick start's client: the blocks below read what it wrote.
      client: { block: 'curl', fileName: 'curl.sh', url: PRINTED_URL },
    },
    async ({ client: curl, server }) => {
      const base = server.ready[1]!;
      expect(curl.exitCode).toBe(0);
      const dated = curl.stdout.replace(
        /"createdAt":"[^"]+"/g,
        '"createdAt":"2026-01-15T10:30:00.000Z"',
      );
      expect(dated).toBe(readme.block('curl-output'));

      const client = await runReadmeBlock(readme.block('client'), {
        cwd,
        fileName: 'client.mts',
        replace: [[PRINTED_URL, base]],
      });
      expect(client).toMatchObject({
        exitCode: 0,
        stdout: 'subscribed: true\ntodos: [x] Buy milk\ntodos: [x] Buy milk, [ ] Call mum\n',
      });

      const lavsClient = await runReadmeBlock(readme.block('lavs-client'), {
        cwd,
        fileName: 'lavs-client.mts',
        replace: [[PRINTED_URL, base]],
      });
      expect(lavsClient).toMatchObject({
        exitCode: 0,
        stdout:
          'Buy milk, Call mum\nINVALID_PARAMS [{"pointer":"/text","message":"must NOT have fewer than 1 characters"}]\n',
      });

      const view = await runReadmeBlock(readme.block('view'), {
        cwd,
        fileName: 'view.mts',
        replace: [[PRINTED_URL, base]],
      });
      expect(view).toMatchObject({
        exitCode: 0,
        stdout: '[x] Buy milk, [ ] Call mum\n[x] Buy milk, [ ] Call mum, [ ] Water plants\n',
      });
    },
  );
});
