/**
 * Fencing: a node that stalls past its lease (here: stopped with SIGSTOP) and wakes up after
 * another node took its connection over must not write to that connection's log, end it, act on
 * a request, or keep running it. Redis checks the owner's fencing token on every write, and the
 * host confirms its lease before every agent turn.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Connection } from '@a2ui-ts/core';
import { createSessionHost } from '@a2ui-ts/core/host';
import { createClient } from '@redis/client';
import { afterEach, expect, inject, it } from 'vitest';
import type { SessionNodeCommand, SessionNodeReport } from '../test/session-node-main.js';
import { startNodes, testPrefix } from '../test/stores.js';

const NODE_MAIN = fileURLToPath(new URL('../test/session-node-main.ts', import.meta.url));
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A session node process; its reports are collected in order. */
async function startSessionNode(redisUrl: string, keyPrefix: string) {
  const child = fork(NODE_MAIN, [], {
    execArgv: ['--conditions=@a2ui-ts/source', '--import', 'tsx'],
    env: {
      ...process.env,
      A2UI_TEST_NODE: JSON.stringify({ redisUrl, keyPrefix, leaseTtlMs: 900, keyTtlMs: 3_000 }),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const reports: SessionNodeReport[] = [];
  child.on('message', (report: SessionNodeReport) => reports.push(report));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
  });
  await expect.poll(() => reports.some((report) => report.type === 'ready')).toBe(true);
  return {
    reports,
    command: (command: SessionNodeCommand) => child.send(command),
    signal: (signal: NodeJS.Signals) => child.kill(signal),
  };
}

const update = (value: string) => ({
  version: 'v0.9' as const,
  updateDataModel: { surfaceId: 's', path: '/v', value },
});

it('a node paused past its lease neither writes to, acts on nor ends the session another node took over', async () => {
  const redisUrl = inject('redisUrl');
  const prefix = testPrefix();
  const a = await startSessionNode(redisUrl, prefix);
  a.command({ type: 'open', id: 'thread-1', principal: 'p' });
  await expect.poll(() => a.reports.some((report) => report.type === 'opened')).toBe(true);

  const cluster = await startNodes(1, { keyPrefix: prefix });
  let onB: Connection | undefined;
  const b = createSessionHost({
    ...cluster.nodes[0]!.hostOptions,
    onAgentError: () => {},
    agent: {
      onConnect: (connection) => {
        onB = connection;
      },
    },
  });
  cleanups.push(async () => {
    await b.close();
    await cluster.close();
  });

  // A stalls; once its lease lapsed, B takes the thread over.
  a.signal('SIGSTOP');
  await expect
    .poll(async () => (await b.open({ principal: 'p', id: 'thread-1' })).created)
    .toBe(true);
  await expect.poll(() => onB).toBeDefined();

  // A wakes up with a message to send on the session it still believes it runs (the command
  // waits in its IPC pipe, so it is the first thing A does).
  a.command({ type: 'send', connectionId: 'thread-1', value: 'from-a' });
  a.command({ type: 'receive', connectionId: 'thread-1', principal: 'p', name: 'late' });
  a.signal('SIGCONT');
  // Nor does its agent act on a request that reaches it then: the session is gone.
  await expect
    .poll(() => a.reports.find((report) => report.type === 'received'))
    .toEqual({ type: 'received', name: 'late', error: 'CONNECTION_CLOSED' });
  expect(a.reports.filter((report) => report.type === 'action')).toEqual([]);
  await expect
    .poll(() => a.reports.filter((report) => report.type === 'disconnect'))
    .toEqual([{ type: 'disconnect', connectionId: 'thread-1', reason: 'reset' }]);
  expect(a.reports.some((report) => report.type === 'sent')).toBe(true);

  // B's session is intact: its messages reach the shared log, A's never did.
  onB!.send(update('from-b'));
  const raw = createClient({ url: redisUrl, RESP: 2 });
  await raw.connect();
  cleanups.push(() => raw.close());
  const entries = async () =>
    (await raw.sendCommand<string[]>(['LRANGE', `${prefix}log:thread-1`, '0', '-1'])).join('\n');
  await expect.poll(entries).toContain('from-b');
  expect(await entries()).not.toContain('from-a');
  expect(await raw.sendCommand(['HGET', `${prefix}logmeta:thread-1`, 'ended'])).toBeNull();
  expect(
    JSON.parse(String(await raw.sendCommand(['GET', `${prefix}conn:thread-1`]))),
  ).toMatchObject({
    owner: cluster.nodes[0]!.nodeId,
  });
  expect(b.session('thread-1')).toBeDefined();
});
