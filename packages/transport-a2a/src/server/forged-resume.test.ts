/**
 * A `Last-Event-ID` beyond anything the session sent (a forged or corrupted resume position) on
 * a message to an open task or on `SubscribeToTask`: core's rule — a position ahead of the
 * connection is a replay gap — gives the documented reset (the step ends `failed` with
 * `metadata.a2uiReset: "replay-gap"`), and the task stays readable: never "Task not found".
 * Real server on port 0, raw HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formAgent, type JsonFrame, postRpc, readSse, v1SendBody } from '../../test/agents.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const V1 = { 'A2A-Version': '1.0' };
const FORGED = { ...V1, 'Last-Event-ID': '999' };

/** Opens a context: its task waits for input, its session has sent two messages. */
async function openTask(): Promise<{ taskId: string; contextId: string }> {
  const opened = (await (
    await postRpc(`${server!.node.url}/`, v1SendBody('SendMessage', {}), V1)
  ).json()) as JsonFrame;
  expect(opened.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  return { taskId: opened.result.task.id, contextId: opened.result.task.contextId };
}

async function getTask(taskId: string): Promise<JsonFrame> {
  const response = await postRpc(
    `${server!.node.url}/`,
    { jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: taskId } },
    V1,
  );
  return (await response.json()) as JsonFrame;
}

const lastUpdate = (frames: JsonFrame[]) => frames.at(-1)?.result?.statusUpdate;

describe('a Last-Event-ID beyond what the session sent', () => {
  it('on a streamed message to an open task: the step ends failed with a2uiReset replay-gap, the task stays', async () => {
    const recorder = formAgent();
    server = await startTestServer({ agent: recorder.agent });
    const { taskId } = await openTask();
    const response = await postRpc(
      `${server.node.url}/`,
      v1SendBody('SendStreamingMessage', { taskId, parts: [{ text: 'hello' }] }),
      FORGED,
    );
    const frames = await readSse(response);
    expect(frames.find((frame) => frame.error)).toBeUndefined();
    expect(lastUpdate(frames)).toMatchObject({
      taskId,
      status: { state: 'TASK_STATE_FAILED' },
      metadata: { a2uiReset: 'replay-gap' },
    });
    // The message was not delivered; the task is still there, ended.
    expect(recorder.inputs).toEqual([]);
    const stored = await getTask(taskId);
    expect(stored.error).toBeUndefined();
    expect(stored.result.status.state).toBe('TASK_STATE_FAILED');
    // The client starts a new context, which works.
    const next = (await (
      await postRpc(`${server.node.url}/`, v1SendBody('SendMessage', {}), V1)
    ).json()) as JsonFrame;
    expect(next.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('on a message (not streamed) to an open task: the answer is the failed task, not TaskNotFound', async () => {
    server = await startTestServer({ agent: formAgent().agent });
    const { taskId } = await openTask();
    const answer = (await (
      await postRpc(`${server.node.url}/`, v1SendBody('SendMessage', { taskId }), FORGED)
    ).json()) as JsonFrame;
    expect(answer.error).toBeUndefined();
    expect(answer.result.task).toMatchObject({
      id: taskId,
      status: { state: 'TASK_STATE_FAILED' },
    });
    expect((await getTask(taskId)).result.status.state).toBe('TASK_STATE_FAILED');
  });

  it('on SubscribeToTask: the stored task, then the replay-gap reset; the task stays readable', async () => {
    server = await startTestServer({ agent: formAgent().agent });
    const { taskId } = await openTask();
    const response = await postRpc(
      `${server.node.url}/`,
      { jsonrpc: '2.0', id: 5, method: 'SubscribeToTask', params: { id: taskId } },
      FORGED,
    );
    const frames = await readSse(response);
    expect(frames[0]!.result.task.id).toBe(taskId);
    expect(lastUpdate(frames)).toMatchObject({
      status: { state: 'TASK_STATE_FAILED' },
      metadata: { a2uiReset: 'replay-gap' },
    });
    expect((await getTask(taskId)).result.status.state).toBe('TASK_STATE_FAILED');
  });
});
