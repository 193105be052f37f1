/**
 * Resumability: the Streamable HTTP stream of a long tool call is cut mid-turn (as a dropped
 * network would), the SDK client comes back with `Last-Event-ID`, and the server replays what the
 * client missed from the session's replay log — every message arrives exactly once, in order.
 */
import { type A2uiAgent, BASIC_CATALOG_ID, type ServerMessage } from '@a2ui-ts/core';
import { createMemoryReplayLog } from '@a2ui-ts/core/host';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, expect, it } from 'vitest';
import { type Listening, listen } from '../test/listen.js';
import { findA2uiPayloads } from './protocol/mcp-a2ui.js';
import { createMcpServer, type McpServerOptions } from './server/create-mcp-server.js';

const step = (value: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'main', path: '/step', value },
});

/**
 * A `fetch` that cuts the response stream of the first `a2ui_action` call right after its first
 * progress event reached the client: the client sees a network error, the server a cancelled
 * stream. `cut` settles then; `requests` records what the client sent.
 */
function cuttingFetch() {
  let onCut!: () => void;
  const cut = new Promise<void>((resolve) => {
    onCut = resolve;
  });
  const requests: { method: string; lastEventId: string | null }[] = [];
  let done = false;
  const wrapped: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === 'POST' ? await request.clone().text() : '';
    requests.push({ method: request.method, lastEventId: request.headers.get('last-event-id') });
    const response = await fetch(request);
    if (done || !body.includes('"a2ui_action"') || !response.body) return response;
    done = true;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done: ended } = await reader.read();
        if (ended) return controller.close();
        controller.enqueue(value);
        if (decoder.decode(value, { stream: true }).includes('notifications/progress')) {
          await reader.cancel();
          controller.error(new TypeError('network connection lost'));
          onCut();
        }
      },
    });
    return new Response(stream, { status: response.status, headers: response.headers });
  };
  return { fetch: wrapped, cut, requests };
}

let node: Listening | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await node?.close();
});

/** A server whose action turn sends step 1, waits for the cut, then sends steps 2–4. */
async function cutMidTurn(options: Partial<McpServerOptions> = {}) {
  const link = cuttingFetch();
  const agent: A2uiAgent = {
    onConnect: (connection) =>
      connection.send({
        version: 'v0.9',
        createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID },
      }),
    async onAction(connection) {
      connection.send(step(1));
      await link.cut;
      // Sent while the client has no stream: stored for its resume.
      connection.send(step(2));
      connection.send(step(3));
      connection.send(step(4));
    },
  };
  const app = createMcpServer({ agent, retryIntervalMs: 10, ...options });
  node = await listen(app);
  const capabilities = {
    a2ui: { clientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } } },
  };
  const stock = new Client({ name: 'stock', version: '1.0.0' }, { capabilities } as never);
  clients.push(stock);
  await stock.connect(
    new StreamableHTTPClientTransport(new URL(`${node.url}/mcp`), { fetch: link.fetch }),
  );
  await stock.callTool({ name: 'a2ui_open', arguments: {} });

  const received: unknown[] = [];
  const result = await stock.callTool(
    { name: 'a2ui_action', arguments: { name: 'go' } },
    undefined,
    {
      // The SDK types progress without `_meta`, but hands it over as sent.
      onprogress: (update) =>
        received.push(
          ...(update as { _meta?: { a2ui: { messages: unknown[] } } })._meta!.a2ui.messages,
        ),
    },
  );
  for (const found of findA2uiPayloads(result.content as unknown[]))
    if (found.ok) received.push(...(found.payload as unknown[]));
  return { received, result, requests: link.requests };
}

/** A memory replay log per connection that records what the session let it drop. */
function recordingLogs(limits: { maxEvents?: number } = {}) {
  const trims: number[] = [];
  const createReplayLog = () => {
    const log = createMemoryReplayLog(limits);
    return {
      ...log,
      trim(throughSeq: number) {
        trims.push(throughSeq);
        log.trim(throughSeq);
      },
    };
  };
  return { trims, createReplayLog };
}

it('resumes a stream cut mid-turn: every message once, in order', async () => {
  const { received, requests } = await cutMidTurn();
  expect(received).toEqual([step(1), step(2), step(3), step(4)]);
  // The client came back once, on a GET naming the last event it had.
  const resumes = requests.filter((request) => request.lastEventId !== null);
  expect(resumes).toHaveLength(1);
  expect(resumes[0]?.method).toBe('GET');
});

it('lets the log drop only what a resume proved the client has', async () => {
  const logs = recordingLogs();
  const { received } = await cutMidTurn({ createReplayLog: logs.createReplayLog });
  expect(received).toHaveLength(4);
  // seq 1 (createSurface, the a2ui_open result) went on another stream, which the client never
  // resumed: nothing proves it arrived, so the log keeps everything (within its own bounds).
  expect(logs.trims).toEqual([]);
});

it('answers a resume whose messages the log no longer keeps with CONNECTION_CLOSED, not a gap', async () => {
  // The log keeps one message: steps 2 and 3 are gone by the time the client resumes.
  const logs = recordingLogs({ maxEvents: 1 });
  // Without snapshots, as a host that cannot compact its surfaces (with them the resume gets one
  // a2uiSnapshot entry instead, which the host's own tests cover).
  const { received, result } = await cutMidTurn({
    createReplayLog: logs.createReplayLog,
    snapshots: false,
  });
  // Step 1 came before the cut; the rest is lost, and the client is told to start again.
  expect(received).toEqual([step(1)]);
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toMatchObject({ error: { code: 'CONNECTION_CLOSED' } });
});
