/**
 * The README runs as printed, from this package's folder, against this package's test Redis: a
 * node serves a client and shuts down on SIGTERM (its handler closes everything, so the process
 * ends on its own), and a process with two named hosts serves both.
 */
import { A2uiClient } from '@a2ui-ts/core';
import {
  readReadmeBlocks,
  type StartedReadmeBlock,
  startReadmeBlock,
} from '@a2ui-ts/core/testing/node';
import { connectSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc';
import { afterEach, expect, inject, it } from 'vitest';

const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));
const options = (fileName: string, ready: RegExp) => ({
  cwd: new URL('..', import.meta.url),
  fileName,
  ready,
  // Unchanged: each node takes its port from PORT, as the README says to start several.
  env: { A2UI_REDIS_URL: inject('redisUrl'), PORT: '0' },
});

let node: StartedReadmeBlock | undefined;
afterEach(() => node?.stop());

/** Connects to `url`, waits until surface `main`'s root arrived, and leaves. */
async function visit(url: string, surfaceId: string): Promise<void> {
  const client = new A2uiClient({ transport: connectSseJsonRpc({ url }) });
  void client.connect().catch(() => {});
  await client.until(() => client.processor.getSurface(surfaceId) !== undefined);
  await client.close();
}

it('marks every block that imports a package, so that each one runs here', () => {
  expect(readme.unmarked).toEqual([]);
});

it('runs a node on Redis: it serves a client, and SIGTERM ends it cleanly', async () => {
  node = await startReadmeBlock(readme.block('node'), options('node.mts', /^A2UI node on (\S+)$/));
  expect(node.ready[1]).not.toMatch(/:8787$/); // PORT=0: a free port
  await visit(node.ready[1]!, 'main');
  await node.stop();
});

it('runs a process with two named hosts: each serves', async () => {
  node = await startReadmeBlock(
    readme.block('hosts'),
    options('hosts.mts', /^A2UI hosts on (\S+) and (\S+)$/),
  );
  // Their agents are `{}`: a connection opens, and nothing is sent.
  for (const url of [node.ready[1]!, node.ready[2]!]) {
    const client = new A2uiClient({ transport: connectSseJsonRpc({ url }) });
    void client.connect().catch(() => {});
    await client.until(() => client.status === 'open');
    await client.close();
  }
  await node.stop();
});
