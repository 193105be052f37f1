/**
 * The README runs as printed, from this package's folder: the quick-start server unchanged with
 * `PORT=0` and the quick-start client against the URL it printed; and the server beside Hono routes on one port.
 */
import { A2uiClient } from '@a2ui-ts/core';
import {
  readReadmeBlocks,
  runReadmeBlock,
  type StartedReadmeBlock,
  startReadmeBlock,
} from '@a2ui-ts/core/testing/node';
import { afterEach, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { connectWs } from './index.js';

const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));
const cwd = new URL('..', import.meta.url);

let server: StartedReadmeBlock | undefined;
afterEach(() => server?.stop());

it('marks every block that imports a package, so that each one runs here', () => {
  expect(readme.unmarked).toEqual([]);
});

it('runs the quick-start client against the quick-start server', async () => {
  server = await startReadmeBlock(readme.block('server'), {
    cwd,
    fileName: 'server.mts',
    env: { PORT: '0' },
    ready: /^A2UI agent on (\S+)$/,
  });
  // As the README says: the URL printed, on the free port PORT=0 took, is the client's `url`.
  expect(server.ready[1]).toMatch(/^(ws|http):\/\/127\.0\.0\.1:\d+\/a2ui$/);
  expect(server.ready[1]).not.toMatch(/:8787\//);
  const result = await runReadmeBlock(readme.block('client'), {
    cwd,
    fileName: 'client.mts',
    replace: [['ws://127.0.0.1:8787/a2ui', server.ready[1]!]],
  });
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toContain('open \n');
  expect(result.stdout).toContain("the agent answered: { last: 'submit' }\n");
});

it('runs the server beside Hono routes: both answer on one port', async () => {
  server = await startReadmeBlock(readme.block('beside-hono'), {
    cwd,
    fileName: 'beside-hono.mts',
    replace: [['port: 8787,', 'port: 0,']],
    ready: /^Hono and A2UI on (http:\/\/\S+)$/,
  });
  const origin = server.ready[1]!;
  expect(await (await fetch(`${origin}/health`)).text()).toBe('ok');
  const client = new A2uiClient({ transport: connectWs({ url: `${origin}/a2ui`, WebSocket }) });
  void client.connect().catch(() => {});
  await client.until(() => client.status === 'open');
  await client.close();
});
