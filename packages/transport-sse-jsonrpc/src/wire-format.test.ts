/**
 * `docs/wire-formats.md` ("SSE + JSON-RPC") shows the bytes of every exchange; this test produces
 * each exchange against a real server and compares the bytes with the blocks marked `wire-test`.
 * Only the random connection ids are replaced by the ones the document uses.
 */
import { BASIC_CATALOG_ID, type Connection, type ServerMessage } from '@a2ui-ts/core';
import { eventually, readWireTestBlocks } from '@a2ui-ts/core/testing/node';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../test/event-stream-reader.js';
import { connectSseJsonRpc } from './client/connect-sse-json-rpc.js';
import { type SseJsonRpcNodeServer, serveSseJsonRpc } from './node.js';
import {
  createSseJsonRpcServer,
  type SseJsonRpcServer,
} from './server/create-sse-json-rpc-server.js';

const DOC_ID = 'k3yQ2m0JcN1xV8fR4tL6pA';
const DOC_RESET_ID = 'Hn5sW9eB2rT7uY1iO3pD8g';

const messages: ServerMessage[] = [
  { version: 'v0.9', createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID } },
  { version: 'v0.9', updateDataModel: { surfaceId: 'main', path: '/greeting', value: 'Hello' } },
];

/** The `wire-test` blocks of the SSE + JSON-RPC section, by name. */
const wire = readWireTestBlocks(
  new URL('../../../docs/wire-formats.md', import.meta.url),
  'SSE + JSON-RPC',
);
const block = wire.block;
const json = (name: string): string => block(name).trimEnd();

let app: SseJsonRpcServer;
let node: SseJsonRpcNodeServer;
let base: string;
const connections: Connection[] = [];

beforeAll(async () => {
  app = createSseJsonRpcServer({
    agent: {
      onConnect(connection) {
        connections.push(connection);
        connection.send(messages);
      },
    },
    keepAliveIntervalMs: 25,
    reconnectGraceMs: 60_000,
  });
  node = await serveSseJsonRpc(new Hono().route('/a2ui', app));
  base = `${node.url}/a2ui`;
});
afterAll(async () => {
  await app.close();
  await node.close();
});

async function post(
  body: string,
): Promise<{ status: number; contentType: string | null; text: string }> {
  const response = await fetch(`${base}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
  };
}

describe('docs/wire-formats.md, SSE + JSON-RPC', () => {
  it('has every block this test checks', () => {
    expect([...wire.names].sort()).toEqual(
      [
        'rpc-action-duplicate',
        'rpc-action-request',
        'rpc-action-response',
        'rpc-batch-request',
        'rpc-batch-response',
        'rpc-disconnect',
        'rpc-disconnect-response',
        'rpc-parse-error',
        'rpc-shutdown-refusal',
        'rpc-too-large',
        'rpc-unknown-connection',
        'sse-close',
        'sse-close-restart',
        'sse-headers',
        'sse-new',
        'sse-reset',
        'sse-resume',
      ].sort(),
    );
  });

  let connectionId: string;

  it('opening a stream: the response head and the bytes up to the first ping', async () => {
    const stream = await openEventStream(`${base}/sse`, {
      headers: { Accept: 'text/event-stream' },
    });
    const [statusLine, ...headerLines] = block('sse-headers').trimEnd().split('\n');
    expect(statusLine).toBe(`HTTP/1.1 ${stream.response.status} OK`);
    for (const line of headerLines) {
      const [name, value] = line.split(': ');
      expect([name, stream.response.headers.get(name!)]).toEqual([name, value]);
    }
    await stream.until(() => stream.text.includes(': ping\n\n'));
    const text = stream.text.slice(0, stream.text.indexOf(': ping\n\n') + ': ping\n\n'.length);
    connectionId = JSON.parse(stream.events[0]!.data).connectionId;
    expect(text.replaceAll(connectionId, DOC_ID)).toBe(block('sse-new'));
    stream.close();
    await eventually(() => app.stats().graceTimers === 1);
  });

  it('resuming with Last-Event-ID', async () => {
    const stream = await openEventStream(`${base}/sse?connectionId=${connectionId}`, {
      headers: { Accept: 'text/event-stream', 'Last-Event-ID': '1' },
    });
    const expected = block('sse-resume').replaceAll(DOC_ID, connectionId);
    await stream.until(() => stream.text.length >= expected.length);
    expect(stream.text.slice(0, expected.length)).toBe(expected);
    stream.close();
    await eventually(() => app.stats().graceTimers === 1);
  });

  it('an action from connectSseJsonRpc, its answer, and the answer to a retry', async () => {
    const ids = ['r1', 'bye'];
    const sent: Array<{ body: string; answer: string }> = [];
    const transport = connectSseJsonRpc({
      url: base,
      createRequestId: () => ids.shift()!,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method !== 'POST') return response;
        const answer = await response.text();
        sent.push({ body: String(init.body), answer });
        return new Response(answer, { status: response.status, headers: response.headers });
      },
    });
    const events = transport.events();
    const iterator = events[Symbol.asyncIterator]();
    while (transport.status !== 'open') await iterator.next();
    const ownId = transport.connectionId!;
    await transport.send(
      {
        version: 'v0.9',
        action: {
          name: 'submit',
          surfaceId: 'main',
          sourceComponentId: 'send',
          timestamp: '2026-01-15T12:00:00.000Z',
          context: { email: 'ada@example.com' },
        },
      },
      { a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } } },
    );
    expect(sent[0]!.body.replaceAll(ownId, DOC_ID)).toBe(json('rpc-action-request'));
    expect(sent[0]!.answer).toBe(json('rpc-action-response'));
    const retry = await post(json('rpc-action-request').replaceAll(DOC_ID, ownId));
    expect([retry.status, retry.contentType, retry.text]).toEqual([
      200,
      'application/json',
      json('rpc-action-duplicate'),
    ]);

    await transport.close();
    expect(sent[1]!.body.replaceAll(ownId, DOC_ID)).toBe(json('rpc-disconnect'));
    expect(sent[1]!.answer).toBe(json('rpc-disconnect-response'));
  });

  it('a batch, with a notification and an invalid request', async () => {
    const answer = await post(json('rpc-batch-request').replaceAll(DOC_ID, connectionId));
    expect([answer.status, answer.text]).toEqual([200, json('rpc-batch-response')]);
  });

  it('errors: not JSON, unknown connection, too large', async () => {
    expect((await post('{"jsonrpc":')).text).toBe(json('rpc-parse-error'));
    const unknown = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'a2ui.action',
        params: {
          connectionId: 'AAAAAAAAAAAAAAAAAAAAAA',
          action: {
            name: 'x',
            surfaceId: 'main',
            sourceComponentId: 'send',
            timestamp: '2026-01-15T12:00:00Z',
            context: {},
          },
        },
      }),
    );
    expect(unknown.text).toBe(json('rpc-unknown-connection'));
    const tooLarge = await post(`"${'x'.repeat(1_048_576)}"`);
    expect([tooLarge.status, tooLarge.text]).toEqual([413, json('rpc-too-large')]);
  });

  it('a reset for an unknown connection, then the new connection on the same stream', async () => {
    const stream = await openEventStream(`${base}/sse?connectionId=AAAAAAAAAAAAAAAAAAAAAA`, {
      headers: { 'Last-Event-ID': '5' },
    });
    const expected = block('sse-reset');
    await stream.until(() => stream.events.length >= 4);
    const newId = JSON.parse(stream.events[1]!.data).connectionId;
    expect(stream.text.replaceAll(newId, DOC_RESET_ID).slice(0, expected.length)).toBe(expected);
    stream.close();
  });

  it('the close event when the agent ends the connection', async () => {
    const stream = await openEventStream(`${base}/sse`);
    await stream.until(() => stream.events.length >= 3);
    connections.at(-1)!.close();
    await stream.end();
    expect(stream.text.endsWith(block('sse-close'))).toBe(true);
  });

  it('the close event when the server shuts down: retry:, and the hint to come back', async () => {
    const closing = await serveSseJsonRpc(
      createSseJsonRpcServer({ agent: { onConnect: (connection) => connection.send(messages) } }),
    );
    const stream = await openEventStream(`${closing.url}/sse`);
    await stream.until(() => stream.events.length >= 3);
    await closing.close();
    await stream.end();
    expect(stream.text.endsWith(block('sse-close-restart'))).toBe(true);
  });

  it('a stream and an action that arrive once close() was called', async () => {
    const app = createSseJsonRpcServer({ agent: {} });
    const closing = await serveSseJsonRpc(app);
    await app.close();
    const late = await openEventStream(`${closing.url}/sse`);
    await late.end();
    expect(late.text).toBe(block('sse-close-restart'));
    const refused = await fetch(`${closing.url}/rpc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'r1',
        method: 'a2ui.action',
        params: {
          connectionId: DOC_ID,
          action: {
            name: 'late',
            surfaceId: 'main',
            sourceComponentId: 'send',
            timestamp: '2026-01-15T12:00:00.000Z',
            context: {},
          },
        },
      }),
    });
    expect([refused.status, await refused.text()]).toEqual([503, json('rpc-shutdown-refusal')]);
    await closing.close();
  });
});
