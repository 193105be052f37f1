/**
 * Turns over A2A: one message with several parts runs their turns in order; a busy session
 * refuses with a failed task that names the A2UI error and a retry hint; a cancel ends a running
 * turn at once; pushes between turns reach the next answer of a client that holds no subscription.
 */
import { createDeferred } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { afterEach, expect, it } from 'vitest';
import {
  actionMessage,
  formAgent,
  postRpc,
  readSse,
  update,
  v1SendBody,
} from '../../test/agents.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { A2UI_MIME_TYPE } from '../protocol/a2ui-extension.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const V1 = { 'A2A-Version': '1.0' };
const a2ui = (value: unknown) => ({ data: value, mediaType: A2UI_MIME_TYPE });
const send = (
  message: Record<string, unknown>,
  method = 'SendMessage',
  headers: Record<string, string> = {},
) => postRpc(`${server!.node.url}/`, v1SendBody(method, message), { ...V1, ...headers });
const dataOf = (task: { status: { message?: { parts: Array<{ data?: unknown }> } } }) =>
  (task.status.message?.parts ?? []).flatMap((part) =>
    part.data === undefined ? [] : [part.data],
  );

it('runs the turns of one message in order: each A2UI part, then its text', async () => {
  const recorder = formAgent();
  server = await startTestServer({ agent: recorder.agent, maxMessagesPerRequest: 3 });
  const opened = (await (await send({})).json()).result.task;
  const ids = { taskId: opened.id, contextId: opened.contextId };
  const answer = await (
    await send({
      ...ids,
      parts: [a2ui([actionMessage('one'), actionMessage('two')]), { text: 'and three' }],
    })
  ).json();
  expect(dataOf(answer.result.task)).toEqual([
    update('/answer', 'one'),
    update('/answer', 'two'),
    update('/heard', 'and three'),
  ]);
  expect(recorder.actions.map((action) => action.name)).toEqual(['one', 'two']);
  const tooMany = await (
    await send({
      ...ids,
      parts: [
        a2ui({
          messages: [
            actionMessage('a'),
            actionMessage('b'),
            actionMessage('c'),
            actionMessage('d'),
          ],
        }),
      ],
    })
  ).json();
  expect(tooMany.error.code).toBe(-32602);
  expect(recorder.actions).toHaveLength(2);
});

it('refuses a message a busy session cannot queue: a failed task naming LIMIT_EXCEEDED and when to retry', async () => {
  const held = createDeferred();
  const recorder = formAgent({
    async onAction(connection, action) {
      await held.promise;
      connection.send(update('/answer', action.name));
    },
  });
  server = await startTestServer({
    agent: recorder.agent,
    maxQueuedClientMessages: 1,
    busyRetryAfterMs: 2_000,
  });
  const opened = (await (await send({})).json()).result.task;
  const ids = { contextId: opened.contextId };
  const running = send({ ...ids, parts: [a2ui(actionMessage('running'))] });
  const queued = send({ ...ids, parts: [a2ui(actionMessage('queued'))] });
  // The third finds one running and one waiting.
  let refused: { result: { task: { status: { state: string }; metadata?: unknown } } } | undefined;
  while (!refused) {
    const answer = await (await send({ ...ids, parts: [a2ui(actionMessage('refused'))] })).json();
    if (answer.result.task.status.state === 'TASK_STATE_FAILED') refused = answer;
  }
  expect(refused.result.task.metadata).toEqual({
    a2uiError: {
      code: 'LIMIT_EXCEEDED',
      message: expect.stringContaining('busy'),
      retryAfterMs: 2_000,
    },
  });
  held.resolve();
  const [first, second] = await Promise.all([(await running).json(), (await queued).json()]);
  expect(dataOf(first.result.task)).toContainEqual(update('/answer', 'running'));
  expect(dataOf(second.result.task)).toContainEqual(update('/answer', 'queued'));
});

it('cancels a running turn at once: the stream ends canceled, the agent is told', async () => {
  const held = createDeferred();
  const recorder = formAgent({
    async onAction(connection) {
      connection.send(update('/answer', 'started'));
      await held.promise;
    },
  });
  server = await startTestServer({ agent: recorder.agent });
  const opened = (await (await send({})).json()).result.task;
  const stream = send(
    { taskId: opened.id, contextId: opened.contextId, parts: [a2ui(actionMessage('slow'))] },
    'SendStreamingMessage',
  );
  const response = await stream;
  const canceled = await (
    await postRpc(
      `${server.node.url}/`,
      { jsonrpc: '2.0', id: 2, method: 'CancelTask', params: { id: opened.id } },
      V1,
    )
  ).json();
  expect(canceled.result.status.state).toBe('TASK_STATE_CANCELED');
  const frames = await readSse(response);
  const last = frames.at(-1)!.result.statusUpdate;
  expect(last.status.state).toBe('TASK_STATE_CANCELED');
  expect(last.metadata).toEqual({ a2uiSessionClosed: 'client-closed' });
  held.resolve();
  await new Promise<void>((resolve) => {
    const check = () => (recorder.disconnects.length > 0 ? resolve() : setImmediate(check));
    check();
  });
  expect(recorder.disconnects).toEqual(['client-closed']);
});

it('gives a client without a subscription what the agent sent between turns with its next answer, in order', async () => {
  const recorder = formAgent();
  server = await startTestServer({ agent: recorder.agent });
  const opened = (await (await send({})).json()).result.task;
  for (let index = 0; index < 3; index++)
    recorder.connections[0]!.send(update(`/pushed/${index}`, index));
  const answer = await (
    await send({
      taskId: opened.id,
      contextId: opened.contextId,
      parts: [a2ui(actionMessage('next'))],
    })
  ).json();
  expect(dataOf(answer.result.task)).toEqual([
    update('/pushed/0', 0),
    update('/pushed/1', 1),
    update('/pushed/2', 2),
    update('/answer', 'next'),
  ]);
});

it('runs a second message on a task after the first one streaming on it: each answer is whole, neither stream fails', async () => {
  const held = createDeferred();
  const started = createDeferred();
  const heard: unknown[] = [];
  const recorder = formAgent({
    async onInput(connection, input) {
      heard.push(input.text);
      if (input.text === 'first') {
        started.resolve();
        await held.promise;
      }
      connection.send(update('/heard', input.text ?? null));
    },
  });
  server = await startTestServer({ agent: recorder.agent });
  const opened = (await (await send({})).json()).result.task;
  const ids = { taskId: opened.id, contextId: opened.contextId };
  const first = send({ ...ids, parts: [{ text: 'first' }] }, 'SendStreamingMessage');
  await started.promise;
  const second = send({ ...ids, parts: [{ text: 'second' }] }, 'SendStreamingMessage');
  // The second message is in: waiting for the first, or (were it not) queued at the host.
  await eventually(
    () =>
      server!.app.stats().waitingMessages === 1 ||
      server!.app.host.stats().queuedClientMessages === 1,
  );
  held.resolve();
  for (const [answer, text] of [
    [first, 'first'],
    [second, 'second'],
  ] as const) {
    const frames = await readSse(await answer);
    expect(frames.every((frame) => frame.error === undefined)).toBe(true);
    expect(frames[0]!.result.task.id).toBe(opened.id);
    expect(frames.at(-1)!.result.statusUpdate.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const sent = frames.flatMap((frame) =>
      (frame.result.statusUpdate?.status?.message?.parts ?? []).map(
        (part: { data?: unknown }) => part.data,
      ),
    );
    expect(sent).toContainEqual(update('/heard', text));
  }
  expect(heard).toEqual(['first', 'second']);
});
