/**
 * The return channel failing, with fake timers and a fake `fetch`: wave 1's `POST /rpc` retry
 * storm (4,001 POSTs in 2 s from one action answered 503; 3,643 in 5 s from a browser gone
 * offline, while the badge said "Connected") must not come back.
 */
import { BASIC_CATALOG_ID, type ClientMessage, type TransportEvent } from '@a2ui-ts/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectSseJsonRpc } from './connect-sse-json-rpc.js';

const encoder = new TextEncoder();
const metadata = {
  a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } },
};
const action: ClientMessage = {
  version: 'v0.9',
  action: { name: 'book', surfaceId: 's', sourceComponentId: 'b', timestamp: 'now', context: {} },
};

/** A server whose event stream stays open and whose `POST /rpc` answers as `answer` says. */
function fakeServer(answer: () => 'busy' | 'offline' | 'ok') {
  const posts: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    if (url.endsWith('/sse')) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(
            encoder.encode(
              'retry: 1000\nevent: connected\ndata: {"connectionId":"AAAAAAAAAAAAAAAAAAAAAA","resumed":false,"replayed":0}\n\n',
            ),
          );
          init?.signal?.addEventListener('abort', () => controller.error(new Error('aborted')));
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
    }
    const request = JSON.parse(String(init?.body)) as { id: string; method: string };
    if (request.method !== 'a2ui.action')
      return Response.json({ jsonrpc: '2.0', id: request.id, result: {} });
    posts.push(request.id);
    const mode = answer();
    if (mode === 'offline') throw new TypeError('Failed to fetch');
    if (mode === 'busy') return new Response('Service Unavailable', { status: 503 });
    return Response.json({ jsonrpc: '2.0', id: request.id, result: { accepted: true } });
  };
  return { fetch: fetch as typeof globalThis.fetch, posts };
}

afterEach(() => {
  vi.useRealTimers();
});

describe.each(['busy', 'offline'] as const)('connectSseJsonRpc when POST /rpc is %s', (failure) => {
  it('makes at most a dozen attempts in 2 s, shows the trouble, and delivers the action once after recovery', async () => {
    vi.useFakeTimers();
    let failing = true;
    const server = fakeServer(() => (failing ? failure : 'ok'));
    const transport = connectSseJsonRpc({
      url: 'http://server.test/a2ui',
      fetch: server.fetch,
      heartbeatTimeoutMs: 0,
      random: () => 0.5,
    });
    const events: TransportEvent[] = [];
    void (async () => {
      for await (const event of transport.events()) events.push(event);
    })();
    await vi.advanceTimersByTimeAsync(0);
    expect(transport.status).toBe('open');
    let delivered = false;
    const sent = transport.send(action, metadata).then(() => {
      delivered = true;
    });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(server.posts.length).toBeGreaterThan(1);
    expect(server.posts.length).toBeLessThanOrEqual(12);
    // Every attempt carries the same id: the server de-duplicates retries.
    expect(new Set(server.posts).size).toBe(1);
    expect(transport.status).toBe('degraded');
    const degraded = events.find((event) => event.type === 'status' && event.status === 'degraded');
    expect(degraded).toMatchObject({
      reason: expect.stringContaining('1 client message not delivered'),
    });
    expect(delivered).toBe(false);
    failing = false;
    await vi.advanceTimersByTimeAsync(30_000);
    await sent;
    expect(transport.status).toBe('open');
    const attempts = server.posts.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.posts.length).toBe(attempts);
    await transport.close();
  });
});
