/**
 * v1.0 function calls on the SSE + JSON-RPC wire: `docs/wire-formats.md` ("Function calls (v1.0)")
 * shows the bytes of each exchange; this test produces them against a real server on 127.0.0.1
 * and compares. Only the random connection id is replaced by the one the document uses.
 */
import { createWireFunctionAgent } from '@a2ui-ts/core/testing';
import { readWireTestBlocks } from '@a2ui-ts/core/testing/node';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventStreamReader, openEventStream } from '../test/event-stream-reader.js';
import { type SseJsonRpcNodeServer, serveSseJsonRpc } from './node.js';
import {
  createSseJsonRpcServer,
  type SseJsonRpcServer,
} from './server/create-sse-json-rpc-server.js';

const DOC_ID = 'k3yQ2m0JcN1xV8fR4tL6pA';
const wire = readWireTestBlocks(
  new URL('../../../docs/wire-formats.md', import.meta.url),
  'Function calls (v1.0)',
);
const block = (name: string) => wire.block(name).trimEnd();

let app: SseJsonRpcServer;
let node: SseJsonRpcNodeServer;
let base: string;
let stream: EventStreamReader;
let connectionId: string;
const wireAgent = createWireFunctionAgent();

beforeAll(async () => {
  app = createSseJsonRpcServer({
    agent: wireAgent.agent,
    keepAliveIntervalMs: 60_000,
    reconnectGraceMs: 60_000,
  });
  node = await serveSseJsonRpc(new Hono().route('/a2ui', app));
  base = `${node.url}/a2ui`;
  stream = await openEventStream(`${base}/sse`, { headers: { Accept: 'text/event-stream' } });
  connectionId = JSON.parse(
    (await stream.next((event) => event.event === 'connected')).data,
  ).connectionId;
});
afterAll(async () => {
  stream.close();
  await app.close();
  await node.close();
});

async function post(body: string): Promise<string> {
  const response = await fetch(`${base}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body.replaceAll(DOC_ID, connectionId),
  });
  return response.text();
}

/** The stream's events after `afterId`, as the bytes the document shows. */
async function eventsThrough(lastId: number, afterId: number): Promise<string> {
  await stream.until(() => stream.events.some((event) => event.id === String(lastId)));
  return stream.events
    .filter((event) => event.id !== undefined && Number(event.id) > afterId)
    .map((event) => `id: ${event.id}\ndata: ${event.data}\n\n`)
    .join('')
    .trimEnd();
}

describe('docs/wire-formats.md, Function calls (v1.0), SSE + JSON-RPC', () => {
  it('callAgentFunction: the request, its answer and the agentFunctionResponse on the stream', async () => {
    expect(await post(block('sse-fn-call-agent-request'))).toBe(
      block('sse-fn-call-agent-response'),
    );
    expect(await eventsThrough(2, 1)).toBe(block('sse-fn-call-agent-event'));
  });

  it('a retransmitted callAgentFunction (a new request id, the same functionCallId) runs once; its answer is sent again', async () => {
    expect(await post(block('sse-fn-call-agent-retransmitted'))).toBe(
      block('sse-fn-call-agent-retransmitted-response'),
    );
    expect(await eventsThrough(3, 2)).toBe(block('sse-fn-call-agent-retransmitted-event'));
    expect(wireAgent.suggestRuns()).toBe(1);
  });

  it('callRendererFunction during a turn, the rendererFunctionResponse, and the turn it continues', async () => {
    const action = JSON.stringify({
      jsonrpc: '2.0',
      id: 'a1',
      method: 'a2ui.action',
      params: {
        connectionId: DOC_ID,
        action: {
          name: 'askZone',
          surfaceId: 'main',
          sourceComponentId: 'zone',
          timestamp: '2026-01-15T12:00:00.000Z',
          context: {},
        },
      },
    });
    expect(await post(action)).toBe(block('sse-fn-action-response'));
    expect(await eventsThrough(4, 3)).toBe(block('sse-fn-call-renderer-event'));
    expect(await post(block('sse-fn-renderer-response-request'))).toBe(
      block('sse-fn-renderer-response-response'),
    );
    expect(await eventsThrough(5, 4)).toBe(block('sse-fn-renderer-continued-event'));
  });

  it('a malformed call is refused with -32602 naming the field, and nothing runs', async () => {
    expect(await post(block('sse-fn-invalid-request'))).toBe(block('sse-fn-invalid-response'));
    expect(wireAgent.suggestRuns()).toBe(1);
    expect(wireAgent.connections).toHaveLength(1);
  });
});
