/**
 * What one client can make the task store hold is bounded in bytes, per principal and in total
 * (measured by the store's own accounting), and a session evicted by a session cap takes its
 * tasks with it.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { formAgent, postRpc, v1SendBody } from '../../test/agents.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const send = (principal: string, message: Record<string, unknown>) =>
  postRpc(`${server!.node.url}/`, v1SendBody('SendMessage', message), {
    'A2A-Version': '1.0',
    authorization: principal,
  }).then((response) => response.json());

const getTask = (principal: string, id: string) =>
  postRpc(
    `${server!.node.url}/`,
    { jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id } },
    { 'A2A-Version': '1.0', authorization: principal },
  ).then((response) => response.json());

const LARGE_TEXT = 'x'.repeat(200_000);
const largeText = { parts: [{ text: LARGE_TEXT }] };

it('keeps at most maxTaskBytesPerPrincipal of one principal and maxTaskBytes in all, however many contexts it opens', async () => {
  server = await startTestServer({
    agent: formAgent().agent,
    authenticate: (request) => request.headers.get('authorization') ?? undefined,
    maxSessionsPerPrincipal: 1000,
    maxTaskBytesPerPrincipal: 1_500_000,
    maxTaskBytes: 2_500_000,
  });
  const bob = (await send('bob', largeText)).result.task;
  let largest = 0;
  for (let index = 0; index < 12; index++) {
    const answer = await send('mallory', largeText);
    expect(answer.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const stats = server.app.stats();
    largest = Math.max(largest, stats.taskBytes!);
    // One task is always kept whatever its size: the bound may be passed by the one being saved.
    expect(stats.taskBytes).toBeLessThanOrEqual(2_500_000 + 1_000_000);
  }
  // A task here holds the 200 kB text twice (the message, and the agent's echo of it).
  expect(largest).toBeGreaterThan(1_000_000);
  expect(server.app.stats().taskBytes).toBeLessThanOrEqual(2_500_000);
  // Bob's task is not pushed out by Mallory's: her tasks count against her own bound first.
  expect((await getTask('bob', bob.id)).result.id).toBe(bob.id);
  expect(server.app.stats().tasks).toBeLessThan(10);
});

it('frees the tasks of a session evicted by maxSessionsPerPrincipal', async () => {
  const recorder = formAgent();
  server = await startTestServer({
    agent: recorder.agent,
    authenticate: (request) => request.headers.get('authorization') ?? undefined,
    maxSessionsPerPrincipal: 2,
  });
  const first = (await send('mallory', largeText)).result.task;
  for (let index = 0; index < 5; index++) await send('mallory', largeText);
  await vi.waitFor(() => expect(recorder.disconnects).toHaveLength(4));
  await vi.waitFor(() => expect(server!.app.stats().tasks).toBe(2));
  expect((await getTask('mallory', first.id)).error.code).toBe(-32001);
});
