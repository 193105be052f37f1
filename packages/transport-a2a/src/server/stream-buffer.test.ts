/**
 * A client that stops reading a stream costs the server at most `maxBufferedBytes` of it: the
 * SDK's event queue takes whatever is published, however slowly the client reads, so the binding
 * leaves messages out past the bound (`SendStreamingMessage`, a blocking `SendMessage`) or ends
 * the stream (`SubscribeToTask`) — and the client, resuming from its `Last-Event-ID`, loses
 * nothing. The stalled reader is an HTTP hop in front of the binding that stops pulling the
 * response body, as a client does once its socket buffers are full (without megabytes to fill
 * them first).
 */
import { createDeferred } from '@a2ui-ts/core/testing';
import type { Hono } from 'hono';
import { afterEach, expect, it } from 'vitest';
import { formAgent, type JsonFrame, postRpc, update, v1SendBody } from '../../test/agents.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const V1 = { 'A2A-Version': '1.0' };
const MAX_BUFFERED_BYTES = 16_384;
/** Messages the agent sends in one turn: five times the bound. */
const SENT = 40;
const blob = (index: number) => update('/blob', { index, pad: 'x'.repeat(2_000) });

/** Stalls the next event stream the server answers with, until `release()`. */
function stallNextStream() {
  const released = createDeferred();
  const responded = createDeferred();
  let armed = false;
  const configure = (parent: Hono) =>
    parent.use('*', async (c, next) => {
      await next();
      if (!armed || !c.res.headers.get('content-type')?.startsWith('text/event-stream')) return;
      armed = false;
      const reader = c.res.body!.getReader();
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            await released.promise;
            const { value, done } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          },
          cancel: (reason) => reader.cancel(reason),
        },
        { highWaterMark: 0 },
      );
      c.res = new Response(body, { status: c.res.status, headers: c.res.headers });
      responded.resolve();
    });
  return {
    configure,
    arm: () => {
      armed = true;
    },
    responded: responded.promise,
    release: () => released.resolve(),
  };
}

const seqsOf = (frames: JsonFrame[]): number[] =>
  frames.flatMap((frame) =>
    (frame.result?.statusUpdate?.status?.message?.parts ?? [])
      .map((part: { metadata?: { a2uiSeq?: number } }) => part.metadata?.a2uiSeq)
      .filter((seq: number | undefined) => seq !== undefined),
  );

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

/** The length of the run `first, first + 1, …` that `seqs` starts with. */
const contiguousEnd = (seqs: number[], first: number) => {
  let last = first - 1;
  for (const seq of seqs) {
    if (seq !== last + 1) break;
    last = seq;
  }
  return last;
};

/** Posts a v1.0 `method` with a new message of `parts` (a text starts the agent's `onInput`). */
const send = (method: string, parts: unknown[] = [{ text: 'go' }]) =>
  postRpc(`${server!.node.url}/`, v1SendBody(method, { parts }), V1);

const resubscribe = (taskId: string, lastEventId: number) =>
  postRpc(
    `${server!.node.url}/`,
    { jsonrpc: '2.0', id: 2, method: 'SubscribeToTask', params: { id: taskId } },
    { ...V1, 'Last-Event-ID': String(lastEventId) },
  );

/** SSE frames of `response` up to the one with `a2uiSeq` `seq` (the rest is cancelled). */
async function framesUntilSeq(response: Response, seq: number): Promise<JsonFrame[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const frames: JsonFrame[] = [];
  let text = '';
  while (true) {
    const { value, done } = await reader.read();
    if (done) return frames;
    text += decoder.decode(value, { stream: true });
    let end = text.indexOf('\n\n');
    while (end >= 0) {
      const line = text
        .slice(0, end)
        .split('\n')
        .find((entry) => entry.startsWith('data: '));
      text = text.slice(end + 2);
      end = text.indexOf('\n\n');
      if (!line) continue;
      const frame = JSON.parse(line.slice('data: '.length));
      frames.push(frame);
      if (seqsOf([frame]).includes(seq)) {
        await reader.cancel();
        return frames;
      }
    }
  }
}

it('SendStreamingMessage to a client that stops reading: publishing stops at maxBufferedBytes, and a resubscribe gets the rest', async () => {
  const allSent = createDeferred();
  let heldMost = 0;
  const stall = stallNextStream();
  const recorder = formAgent({
    async onInput(connection) {
      for (let index = 0; index < SENT; index++) {
        connection.send(blob(index));
        // One message per update: the publisher sees each, with what the client left unread.
        await new Promise<void>((resolve) => setImmediate(resolve));
        heldMost = Math.max(heldMost, server!.app.stats().bufferedBytes);
      }
      allSent.resolve();
    },
  });
  server = await startTestServer({
    agent: recorder.agent,
    maxBufferedBytes: MAX_BUFFERED_BYTES,
    configure: stall.configure,
  });
  stall.arm();
  const answer = send('SendStreamingMessage');
  await stall.responded;
  await allSent.promise;
  expect(heldMost).toBeGreaterThan(0);
  // Where all 40 would be queued.
  expect(heldMost).toBeLessThanOrEqual(MAX_BUFFERED_BYTES);

  stall.release();
  const frames = await framesUntilSeq(await answer, 2 + SENT);
  const taskId = frames[0]!.result.task.id as string;
  const last = 2 + SENT;
  const seqs = seqsOf(frames);
  // The surface (1, 2), what fitted, then the last message in the final status: the gap shows.
  expect(seqs.at(-1)).toBe(last);
  const seen = contiguousEnd(seqs, 1);
  expect(seen).toBeLessThan(last - 1);
  expect(server.app.stats().bufferedBytes).toBe(0);

  const resumed = seqsOf(await framesUntilSeq(await resubscribe(taskId, seen), last));
  expect(resumed).toEqual(range(seen + 1, last));
});

it('a blocking SendMessage answer keeps the latest messages within maxBufferedBytes', async () => {
  const recorder = formAgent({
    onInput(connection) {
      for (let index = 0; index < SENT; index++) connection.send(blob(index));
    },
  });
  server = await startTestServer({ agent: recorder.agent, maxBufferedBytes: MAX_BUFFERED_BYTES });
  const answer = await (await send('SendMessage')).json();
  const parts = answer.result.task.status.message.parts as Array<{
    data?: unknown;
    metadata?: { a2uiSeq?: number };
  }>;
  const seqs = parts.flatMap((part) => (part.metadata?.a2uiSeq ? [part.metadata.a2uiSeq] : []));
  const last = 2 + SENT;
  expect(seqs.at(-1)).toBe(last);
  expect(seqs).toEqual(range(seqs[0]!, last));
  expect(seqs[0]).toBeGreaterThan(1);
  expect(JSON.stringify(parts.map((part) => part.data)).length).toBeLessThanOrEqual(
    MAX_BUFFERED_BYTES + 2_500,
  );
  const resumed = seqsOf(await framesUntilSeq(await resubscribe(answer.result.task.id, 0), last));
  expect(resumed).toEqual(range(1, last));
});

it('SubscribeToTask to a client that stops reading holds at most maxBufferedBytes, then ends; a resubscribe gets all', async () => {
  const stall = stallNextStream();
  const recorder = formAgent();
  server = await startTestServer({
    agent: recorder.agent,
    maxBufferedBytes: MAX_BUFFERED_BYTES,
    configure: stall.configure,
  });
  const opened = await (await send('SendMessage', [])).json();
  const taskId = opened.result.task.id as string;
  stall.arm();
  const subscription = resubscribe(taskId, 2);
  await stall.responded;
  // Server push between turns, to a subscriber that reads nothing.
  let heldMost = 0;
  for (let index = 0; index < SENT; index++) {
    recorder.connections[0]!.send(blob(index));
    heldMost = Math.max(heldMost, server.app.stats().bufferedBytes);
  }
  expect(heldMost).toBeGreaterThan(0);
  expect(heldMost).toBeLessThanOrEqual(MAX_BUFFERED_BYTES);

  stall.release();
  const text = await (await subscription).text();
  expect(text).toMatch(/event: error\ndata: .*too slowly/);
  expect(server.app.stats().bufferedBytes).toBe(0);
  const resumed = seqsOf(await framesUntilSeq(await resubscribe(taskId, 2), 2 + SENT));
  expect(resumed).toEqual(range(3, 2 + SENT));
});
