/**
 * Principals (the SDK's user context): a context's A2UI session belongs to the principal that
 * opened it. Another principal finds nothing of it — its tasks are not found (A2A's rule, the SDK
 * scopes its stores by user) and the same context id names a session of its own — and the owner
 * is undisturbed.
 */
import { afterEach, expect, it } from 'vitest';
import { actionMessage, formAgent, postRpc, update, v1SendBody } from '../../test/agents.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { A2UI_MIME_TYPE } from '../protocol/a2ui-extension.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const send = (principal: string, message: Record<string, unknown>, method = 'SendMessage') =>
  postRpc(`${server!.node.url}/`, v1SendBody(method, message), {
    'A2A-Version': '1.0',
    authorization: principal,
  }).then((response) => response.json());

const rpc = (principal: string, method: string, params: Record<string, unknown>) =>
  postRpc(
    `${server!.node.url}/`,
    { jsonrpc: '2.0', id: 2, method, params },
    { 'A2A-Version': '1.0', authorization: principal },
  );

it("keeps a context's session to the principal that opened it", async () => {
  const recorder = formAgent();
  server = await startTestServer({
    agent: recorder.agent,
    authenticate: (request) => request.headers.get('authorization') ?? undefined,
  });
  const opened = await send('alice', {});
  const { id: taskId, contextId } = opened.result.task as { id: string; contextId: string };
  const action = { data: actionMessage('stolen'), mediaType: A2UI_MIME_TYPE };

  // Mallory cannot read, follow, cancel or continue Alice's task…
  expect((await (await rpc('mallory', 'GetTask', { id: taskId })).json()).error.code).toBe(-32001);
  expect((await (await rpc('mallory', 'SubscribeToTask', { id: taskId })).json()).error.code).toBe(
    -32001,
  );
  expect((await (await rpc('mallory', 'CancelTask', { id: taskId })).json()).error.code).toBe(
    -32001,
  );
  expect((await send('mallory', { taskId, contextId, parts: [action] })).error.code).toBe(-32001);
  expect(recorder.actions).toEqual([]);
  // …and her context id names a session of her own, with its own onConnect.
  const own = await send('mallory', { contextId, parts: [action] });
  expect(own.result.task.contextId).toBe(contextId);
  expect(recorder.connections.map((connection) => connection.principal)).toEqual([
    'alice',
    'mallory',
  ]);
  expect(recorder.connections[0]!.id).not.toBe(recorder.connections[1]!.id);

  // Alice's session is undisturbed: one connection of hers, her next action answered in her task.
  const next = await send('alice', {
    taskId,
    contextId,
    parts: [{ data: actionMessage('mine'), mediaType: A2UI_MIME_TYPE }],
  });
  expect(next.result.task.id).toBe(taskId);
  expect(next.result.task.status.message.parts[0].data).toEqual(update('/answer', 'mine'));
  expect(recorder.actions.map((entry) => entry.name)).toEqual(['stolen', 'mine']);
  expect(recorder.disconnects).toEqual([]);
});

it('keeps the principals 1 and "1" apart: sessions and tasks of their own', async () => {
  const recorder = formAgent();
  server = await startTestServer({
    agent: recorder.agent,
    // `n:1` is the number 1, `s:1` the string "1".
    authenticate: (request) => {
      const [type, value] = (request.headers.get('authorization') ?? '').split(':');
      return type === 'n' ? Number(value) : value;
    },
  });
  const opened = await send('n:1', {});
  const { id: taskId, contextId } = opened.result.task as { id: string; contextId: string };
  expect((await (await rpc('s:1', 'GetTask', { id: taskId })).json()).error.code).toBe(-32001);
  const action = { data: actionMessage('stolen'), mediaType: A2UI_MIME_TYPE };
  const own = await send('s:1', { contextId, parts: [action] });
  expect(own.result.task.contextId).toBe(contextId);
  expect(recorder.connections.map((connection) => connection.principal)).toEqual([1, '1']);
  expect(recorder.connections[0]!.id).not.toBe(recorder.connections[1]!.id);
});
