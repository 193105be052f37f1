/**
 * The default task store keeps at most `maxTasks` tasks: a client that opens context after
 * context cannot make the server hold its tasks for good. What it keeps behaves as the SDK's
 * `InMemoryTaskStore`: scoped by user, `ListTasks` filtered and paged.
 */
import { TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { afterEach, expect, it } from 'vitest';
import { formAgent, postRpc, v1SendBody } from '../../test/agents.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { createMemoryTaskStore } from './memory-task-store.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const V1 = { 'A2A-Version': '1.0' };

it('forgets the least recently updated tasks beyond maxTasks, however many contexts a client opens', async () => {
  server = await startTestServer({ agent: formAgent().agent, maxTasks: 20 });
  const url = `${server.node.url}/`;
  const send = (message: Record<string, unknown>) =>
    postRpc(url, v1SendBody('SendMessage', message), V1).then((response) => response.json());
  const taskIds: string[] = [];
  for (let index = 0; index < 60; index++) taskIds.push((await send({})).result.task.id);
  expect(server.app.stats().tasks).toBe(20);
  const getTask = (id: string) =>
    postRpc(url, { jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id } }, V1).then(
      (response) => response.json(),
    );
  expect((await getTask(taskIds[0]!)).error.code).toBe(-32001);
  expect((await getTask(taskIds.at(-1)!)).result.id).toBe(taskIds.at(-1));
  // A task that is still used stays: it is updated on every turn of its context.
  const kept = (await send({})).result.task;
  const after = (await send({})).result.task;
  for (let index = 0; index < 15; index++) await send({});
  const continued = await send({ taskId: kept.id, contextId: kept.contextId });
  expect(continued.result.task.id).toBe(kept.id);
  for (let index = 0; index < 10; index++) await send({});
  expect((await getTask(kept.id)).result.id).toBe(kept.id);
  expect((await getTask(after.id)).error.code).toBe(-32001);
  expect(server.app.stats().tasks).toBe(20);
});

it('refuses a maxTasks that would bound nothing', () => {
  expect(() => createMemoryTaskStore({ maxTasks: 0 })).toThrow(TypeError);
  expect(() => createMemoryTaskStore({ maxTasks: Number.NaN })).toThrow(TypeError);
  expect(createMemoryTaskStore({ maxTasks: Number.POSITIVE_INFINITY }).size).toBe(0);
});

it('scopes tasks by user and lists them as the SDK does: filtered, newest first, paged', async () => {
  const store = createMemoryTaskStore({ maxTasks: 100 });
  const alice = new ServerCallContext({ user: { isAuthenticated: true, userName: 'alice' } });
  const bob = new ServerCallContext({ user: { isAuthenticated: true, userName: 'bob' } });
  const task = (
    id: string,
    contextId: string,
    timestamp: string,
    state = TaskState.TASK_STATE_INPUT_REQUIRED,
  ) => ({
    id,
    contextId,
    status: { state, timestamp },
    artifacts: [{ artifactId: 'a', parts: [] }],
    history: [],
    metadata: {},
  });
  await store.save(task('t1', 'c1', '2026-01-01T00:00:01Z') as never, alice);
  await store.save(task('t2', 'c1', '2026-01-01T00:00:03Z') as never, alice);
  await store.save(
    task('t3', 'c2', '2026-01-01T00:00:02Z', TaskState.TASK_STATE_COMPLETED) as never,
    alice,
  );
  await store.save(task('t4', 'c1', '2026-01-01T00:00:04Z') as never, bob);
  expect(await store.load('t4', alice)).toBeUndefined();
  expect((await store.load('t1', alice))?.id).toBe('t1');

  const list = (params: Record<string, unknown>, context = alice) =>
    store.list(
      {
        tenant: '',
        contextId: '',
        status: 0,
        pageToken: '',
        statusTimestampAfter: undefined,
        ...params,
      } as never,
      context,
    );
  const all = await list({});
  expect(all.tasks.map((entry) => entry.id)).toEqual(['t2', 't3', 't1']);
  expect(all.totalSize).toBe(3);
  expect(all.tasks[0]!.artifacts).toEqual([]);
  expect((await list({ contextId: 'c1' })).tasks.map((entry) => entry.id)).toEqual(['t2', 't1']);
  expect(
    (await list({ status: TaskState.TASK_STATE_COMPLETED })).tasks.map((entry) => entry.id),
  ).toEqual(['t3']);
  const first = await list({ pageSize: 2 });
  expect(first.tasks.map((entry) => entry.id)).toEqual(['t2', 't3']);
  const second = await list({ pageSize: 2, pageToken: first.nextPageToken });
  expect(second.tasks.map((entry) => entry.id)).toEqual(['t1']);
  expect(second.nextPageToken).toBe('');
  await expect(list({ pageToken: '%%%' })).rejects.toThrow(/page token|base64/i);
  expect((await list({}, bob)).tasks.map((entry) => entry.id)).toEqual(['t4']);
});
