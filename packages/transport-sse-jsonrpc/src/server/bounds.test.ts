/**
 * Bounds on everything a client can make the server hold, over the real wire: remembered request
 * ids (by count and bytes, compared by exact text), client messages waiting for a busy agent,
 * metadata nesting, and the deadline for a request body.
 */
import { connect } from 'node:net';
import { type A2uiAgent, BASIC_CATALOG_ID, type Connection } from '@a2ui-ts/core';
import { createDeferred } from '@a2ui-ts/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream } from '../../test/event-stream-reader.js';
import { FAST_RECONNECT, startTestServer, type TestServer } from '../../test/harness.js';

const capabilities = {
  a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } },
};
const action = (name: string) => ({
  name,
  surfaceId: 's',
  sourceComponentId: 'b',
  timestamp: '2026-01-15T12:00:00Z',
  context: {},
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function openConnection(test: TestServer) {
  const stream = await openEventStream(`${test.node.url}/sse`);
  const connected = await stream.next();
  return { stream, connectionId: JSON.parse(connected.data).connectionId as string };
}

const rpc = (test: TestServer, body: string) =>
  fetch(`${test.node.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });

describe('turn results', () => {
  it("names the agent's turn in the answer, so the client settles send() once the turn's messages are applied", async () => {
    const gate = createDeferred<void>();
    server = await startTestServer({
      agent: {
        async onAction(connection, event) {
          connection.send({
            version: 'v0.9',
            updateDataModel: { surfaceId: 's', path: '/a', value: 1 },
          });
          if (event.name === 'slow') await gate.promise;
          connection.send({
            version: 'v0.9',
            updateDataModel: { surfaceId: 's', path: '/b', value: 2 },
          });
        },
      },
      turnWaitMs: 200,
    });
    const { stream, connectionId } = await openConnection(server);
    const call = (id: string, name: string) =>
      rpc(
        server!,
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'a2ui.action',
          params: { connectionId, action: action(name) },
        }),
      ).then((response) => response.json());
    expect(await call('1', 'fast')).toEqual({
      jsonrpc: '2.0',
      id: '1',
      result: { accepted: true, turn: { startSeq: 0, endSeq: 2 } },
    });
    // A turn longer than turnWaitMs is answered at the deadline, without it.
    expect(await call('2', 'slow')).toEqual({
      jsonrpc: '2.0',
      id: '2',
      result: { accepted: true },
    });
    gate.resolve();
    await stream.close();

    // The client: every send settles only once its turn's messages are queued as events.
    const transport = server.connect();
    const sends: string[] = [];
    void (async () => {
      for await (const _event of transport.events());
    })();
    for (const name of ['one', 'two']) {
      await transport.send({ version: 'v0.9', action: action(name) }, capabilities);
      sends.push(`${name} settled after message ${transport.lastEventId}`);
    }
    expect(sends).toEqual(['one settled after message 2', 'two settled after message 4']);
    await transport.close();
  });
});

describe('bounds on what a client can make the server hold', () => {
  it('compares request ids by their exact JSON text, and echoes them exactly', async () => {
    const names: string[] = [];
    server = await startTestServer({
      agent: { onAction: (_c, event) => void names.push(event.name) },
    });
    const { stream, connectionId } = await openConnection(server);
    const call = (id: string, name: string) =>
      `{"jsonrpc":"2.0","id":${id},"method":"a2ui.action","params":{"connectionId":"${connectionId}","action":${JSON.stringify(action(name))}}}`;
    const first = await rpc(server, call('12345678901234567890', 'first'));
    const second = await rpc(server, call('12345678901234567891', 'second'));
    const repeat = await rpc(server, call('12345678901234567891', 'repeat'));
    expect(await first.text()).toBe(
      '{"jsonrpc":"2.0","id":12345678901234567890,"result":{"accepted":true,"turn":{"startSeq":0,"endSeq":0}}}',
    );
    expect(await second.text()).toBe(
      '{"jsonrpc":"2.0","id":12345678901234567891,"result":{"accepted":true,"turn":{"startSeq":0,"endSeq":0}}}',
    );
    expect(await repeat.text()).toContain('"duplicate":true');
    // 1.0 and 1 are two texts, so two requests.
    await rpc(server, call('1', 'one'));
    await rpc(server, call('1.0', 'one point zero'));
    expect(names).toEqual(['first', 'second', 'one', 'one point zero']);
    await stream.close();
  });

  it('keeps at most maxRememberedRequestBytes of request ids per connection, however long they are', async () => {
    server = await startTestServer({ agent: {}, maxRememberedRequestBytes: 64 * 1024 });
    const { stream, connectionId } = await openConnection(server);
    const id = (index: number) => `"${index}-${'x'.repeat(250)}"`;
    const batch = Array.from(
      { length: 100 },
      (_, index) =>
        `{"jsonrpc":"2.0","id":${id(index)},"method":"a2ui.action","params":{"connectionId":"${connectionId}","action":${JSON.stringify(action('a'))}}}`,
    );
    for (let round = 0; round < 10; round++)
      await (await rpc(server, `[${batch.join(',')}]`)).text();
    const stats = server.app.stats();
    expect(stats.rememberedRequestBytes).toBeLessThanOrEqual(64 * 1024);
    expect(stats.rememberedRequests).toBeGreaterThan(0);
    // A request id longer than maxRequestIdLength (256) is refused, not remembered, and not
    // echoed (an invalid request's id is null): a 900 KB id is not sent back whole.
    for (const length of [300, 900_000]) {
      const tooLong = await rpc(
        server,
        `{"jsonrpc":"2.0","id":"${'y'.repeat(length)}","method":"a2ui.action","params":{"connectionId":"${connectionId}","action":${JSON.stringify(action('a'))}}}`,
      );
      const text = await tooLong.text();
      expect(text.length).toBeLessThan(500);
      expect(JSON.parse(text)).toMatchObject({
        id: null,
        error: { code: -32600, data: { path: '/id' } },
      });
    }
    await stream.close();
  });

  it('refuses client messages beyond the queue of a busy agent with 503 + Retry-After, and the client delivers them all once it catches up', async () => {
    const gate = createDeferred<void>();
    const handled: string[] = [];
    const agent: A2uiAgent = {
      async onAction(_connection, event) {
        await gate.promise;
        handled.push(event.name);
      },
    };
    server = await startTestServer({
      agent,
      maxQueuedClientMessages: 5,
      busyRetryAfterMs: 1_000,
      // Answer at once: this part measures the queue bound, not turns.
      turnWaitMs: 0,
    });
    const { stream, connectionId } = await openConnection(server);
    const answers: Array<{ status: number; retryAfter: string | null; body: unknown }> = [];
    for (let index = 0; index < 8; index++) {
      const response = await rpc(
        server,
        JSON.stringify({
          jsonrpc: '2.0',
          id: `raw-${index}`,
          method: 'a2ui.action',
          params: { connectionId, action: action(`raw-${index}`), metadata: capabilities },
        }),
      );
      answers.push({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: await response.json(),
      });
    }
    // One message is being handled, five wait: the next ones are refused at once.
    expect(answers.slice(0, 6).map((answer) => answer.status)).toEqual([
      200, 200, 200, 200, 200, 200,
    ]);
    for (const refused of answers.slice(6)) {
      expect(refused).toMatchObject({
        status: 503,
        retryAfter: '1',
        body: { error: { code: -32005, data: { retryAfterMs: 1000 } } },
      });
    }
    expect(server.app.stats().queuedClientMessages).toBeLessThanOrEqual(5);
    gate.resolve();
    await stream.close();

    // The real client backs off and redelivers, so every action arrives once and in order.
    const slow = createDeferred<void>();
    const got: string[] = [];
    await server.close();
    server = await startTestServer({
      agent: {
        async onAction(_connection: Connection, event) {
          if (got.length === 0) await slow.promise;
          got.push(event.name);
        },
      },
      maxQueuedClientMessages: 2,
      busyRetryAfterMs: 10,
      // Answered at once, the client sends its messages while the first one waits for the agent.
      turnWaitMs: 0,
    });
    const transport = server.connect({
      reconnect: { ...FAST_RECONNECT, maxDelayMs: 20 },
      maxBatchLength: 1,
    });
    void (async () => {
      for await (const _event of transport.events());
    })();
    const sends = Array.from({ length: 6 }, (_, index) =>
      transport.send({ version: 'v0.9', action: action(`client-${index}`) }, capabilities),
    );
    await sends[1];
    slow.resolve();
    await Promise.all(sends);
    await eventually(() => got.length === 6);
    expect(got).toEqual(Array.from({ length: 6 }, (_, index) => `client-${index}`));
    await transport.close();
  });

  it('refuses metadata nested deeper than maxMetadataDepth without handing it to the agent', async () => {
    const seen: unknown[] = [];
    server = await startTestServer({
      agent: { onAction: (_c, _a, metadata) => void seen.push(metadata) },
    });
    const { stream, connectionId } = await openConnection(server);
    const deep = `${'['.repeat(200_000)}1${']'.repeat(200_000)}`;
    const response = await rpc(
      server,
      `{"jsonrpc":"2.0","id":1,"method":"a2ui.action","params":{"connectionId":"${connectionId}","action":${JSON.stringify(action('a'))},"metadata":{"extra":${deep}}}}`,
    );
    const answer = (await response.json()) as { error: { code: number; data: { path: string } } };
    expect(answer.error).toMatchObject({ code: -32602 });
    expect(answer.error.data.path).toMatch(/^\/params\/metadata\/extra(\/0)+$/);
    expect(seen).toEqual([]);
    await stream.close();
  });

  it('answers a batch with a request nested 100,000 levels deep (or a bare deep array) with -32600 for it, and serves the rest', async () => {
    const seen: string[] = [];
    server = await startTestServer({
      agent: { onAction: (_c, event) => void seen.push(event.name) },
    });
    const { stream, connectionId } = await openConnection(server);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const request = (id: string, name: string) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'a2ui.action',
        params: { connectionId, action: action(name) },
      });
    const batch = await rpc(
      server,
      `[${deep},${request('2', 'kept')},{"jsonrpc":"2.0","id":"3","method":"a2ui.action","params":{"x":${deep}}}]`,
    );
    expect(batch.status).toBe(200);
    const answers = (await batch.json()) as Array<{
      id: unknown;
      error?: { code: number; data: { path: string } };
    }>;
    expect(answers[0]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(answers[0]!.error!.data.path).toMatch(/^\/0(\/0)+$/);
    expect(answers[1]).toMatchObject({ id: '2', result: { accepted: true } });
    expect(answers[2]).toMatchObject({ id: '3', error: { code: -32600 } });
    expect(answers[2]!.error!.data.path).toMatch(/^\/2\/params\/x(\/0)+$/);
    const bare = await rpc(server, deep);
    expect(bare.status).toBe(200);
    expect(await bare.json()).toMatchObject([{ id: null, error: { code: -32600 } }]);
    expect(seen).toEqual(['kept']);
    await stream.close();
  });

  it('answers 408 when a request body does not arrive within bodyTimeoutMs, and keeps serving', async () => {
    server = await startTestServer({ agent: {}, bodyTimeoutMs: 200 });
    const socket = connect(server.node.port, '127.0.0.1');
    const response = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if (text.includes('\r\n\r\n') && text.includes('}')) resolve(text);
      });
    });
    // Headers promise 1,000 bytes; only the first few ever come.
    socket.write(
      'POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":',
    );
    const text = await response;
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toContain('"code":-32006');
    socket.destroy();
    const ok = await rpc(server, '{"jsonrpc":"2.0","id":1,"method":"nope"}');
    expect(ok.status).toBe(200);
  });
});

async function eventually(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
