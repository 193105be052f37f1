/**
 * `docs/wire-formats.md` ("REST") shows the bytes of every exchange; this test produces each
 * exchange against a real server — the requests as `connectRest` makes them — and compares the
 * bytes with the blocks marked `wire-test`. Only the random connection ids are replaced by the one
 * the document uses.
 */
import { BASIC_CATALOG_ID, type Connection, type ServerMessage } from '@a2ui-ts/core';
import { createDeferred, recordTransport } from '@a2ui-ts/core/testing';
import { eventually, readWireTestBlocks } from '@a2ui-ts/core/testing/node';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Listening, listen } from '../test/listen.js';
import { connectRest, type RestTransport } from './client/connect-rest.js';
import { createRestServer, type RestServer } from './server/create-rest-server.js';

const DOC_ID = 'k3yQ2m0JcN1xV8fR4tL6pA';

/** The `wire-test` blocks of the REST section, by name. */
const wire = readWireTestBlocks(new URL('../../../docs/wire-formats.md', import.meta.url), 'REST');
const json = (name: string): string => wire.block(name).trimEnd();

const status = (value: string): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'main', path: '/status', value },
});

let app: RestServer;
let node: Listening;
let base: string;
const connections: Connection[] = [];
/** Names of the actions the agent received. */
const received: string[] = [];
const slow = createDeferred<void>();
const hold = createDeferred<void>();
const holding = createDeferred<void>();

beforeAll(async () => {
  app = createRestServer({
    // The reset exchange the wire doc shows (with snapshots, a stale cursor gets an a2uiSnapshot).
    snapshots: false,
    agent: {
      onConnect(connection) {
        connections.push(connection);
        connection.send([
          { version: 'v0.9', createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID } },
          {
            version: 'v0.9',
            updateDataModel: { surfaceId: 'main', path: '/greeting', value: 'Hello' },
          },
        ]);
      },
      async onAction(connection, action) {
        received.push(action.name);
        if (action.name === 'slow') {
          connection.send(status('Working'));
          await slow.promise;
          connection.send(status('Worked'));
        } else if (action.name === 'leave') {
          connection.send(status('Bye'));
          connection.close();
        } else if (action.name === 'hold') {
          holding.resolve();
          await hold.promise;
        } else connection.send(status(`Received ${action.name}`));
      },
    },
    turnTimeoutMs: 100,
    maxQueuedClientMessages: 1,
    reconnectGraceMs: 60_000,
  });
  const parent = new Hono().route('/a2ui', app);
  node = await listen({ fetch: parent.fetch, close: () => app.close() });
  base = `${node.url}/a2ui`;
});
afterAll(async () => {
  slow.resolve();
  hold.resolve();
  await node.close();
});

interface Exchanged {
  method: string;
  url: string;
  headers: Headers;
  body: string | undefined;
  status: number;
  responseHeaders: Headers;
  answer: string;
}

/** A `connectRest` whose requests and answers are recorded, with the ids the document uses. */
function recordedClient(ids: string[], rewrite?: (url: string) => string) {
  const exchanged: Exchanged[] = [];
  const transport = connectRest({
    url: base,
    createRequestId: () => ids.shift() ?? `id-${Math.random()}`,
    pollWaitMs: 25_000,
    fetch: async (input, init) => {
      const url = rewrite ? rewrite(String(input)) : String(input);
      const response = await fetch(url, init);
      const answer = await response.text();
      exchanged.push({
        method: init?.method ?? 'GET',
        url,
        headers: new Headers(init?.headers),
        body: init?.body === undefined ? undefined : String(init.body),
        status: response.status,
        responseHeaders: response.headers,
        answer,
      });
      return new Response(answer, { status: response.status, headers: response.headers });
    },
  });
  return { transport, exchanged };
}

const post = async (path: string, body: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
};

const ofDoc = (text: string, id: string) => text.replaceAll(id, DOC_ID);

describe('docs/wire-formats.md, REST', () => {
  it('has every block this test checks', () => {
    expect([...wire.names].sort()).toEqual(
      [
        'rest-action-request',
        'rest-action-response',
        'rest-connect-replaces',
        'rest-connect-request',
        'rest-connect-response',
        'rest-disconnect-request',
        'rest-disconnect-response',
        'rest-error-busy',
        'rest-error-media-type',
        'rest-error-too-large',
        'rest-error-unknown',
        'rest-error-validation',
        'rest-headers',
        'rest-poll-empty',
        'rest-poll-reset',
        'rest-poll-response',
        'rest-poll-restart',
        'rest-poll-superseded',
        'rest-shutdown-refusal',
        'rest-turn-closed',
        'rest-turn-more',
      ].sort(),
    );
  });

  let transport: RestTransport;
  let exchanged: Exchanged[];
  let id: string;

  it('connect, an action and its retry, as connectRest sends them', async () => {
    ({ transport, exchanged } = recordedClient(['c-1', 'a-1']));
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 2);
    id = transport.connectionId!;
    const connect = exchanged[0]!;
    expect([connect.method, connect.url, connect.headers.get('idempotency-key')]).toEqual([
      'POST',
      `${base}/connect`,
      'c-1',
    ]);
    expect(connect.body).toBe(json('rest-connect-request'));
    expect(ofDoc(connect.answer, id)).toBe(json('rest-connect-response'));
    const [statusLine, ...headerLines] = json('rest-headers').split('\n');
    expect(statusLine).toBe(`HTTP/1.1 ${connect.status} OK`);
    for (const line of headerLines) {
      const [name, value] = line.split(': ');
      expect([name, connect.responseHeaders.get(name!)]).toEqual([name, value]);
    }

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
    const act = exchanged.find((entry) => entry.url.endsWith('/action'))!;
    expect(act.headers.get('idempotency-key')).toBe('a-1');
    expect(ofDoc(act.body!, id)).toBe(json('rest-action-request'));
    expect(act.answer).toBe(json('rest-action-response'));
    // Retried on a connection no client acknowledged the turn of: the same bytes, one delivery.
    const other = JSON.parse((await post('/connect', '{}')).text).connectionId as string;
    const body = act.body!.replaceAll(id, other);
    const first = await post('/action', body, { 'idempotency-key': 'a-1' });
    const retry = await post('/action', body, { 'idempotency-key': 'a-1' });
    expect([first.text, retry.status, retry.text]).toEqual([
      json('rest-action-response'),
      200,
      json('rest-action-response'),
    ]);
    expect(received.filter((name) => name === 'submit')).toHaveLength(2);
  });

  it('a long poll: a push, an empty answer, a superseded poll', async () => {
    await eventually(() => app.stats().polls === 1);
    connections[0]!.send({
      version: 'v0.9',
      updateDataModel: { surfaceId: 'main', path: '/seats', value: 4 },
    });
    await eventually(() => exchanged.some((entry) => entry.answer === json('rest-poll-response')));
    const poll = exchanged.find((entry) => entry.answer === json('rest-poll-response'))!;
    expect(ofDoc(poll.url, id)).toBe(
      `${base}/messages?connectionId=${DOC_ID}&after=3&waitMs=25000`,
    );
    const empty = await fetch(`${base}/messages?connectionId=${id}&after=4&waitMs=1`);
    expect(await empty.text()).toBe(json('rest-poll-empty'));
    // The client's own poll waits; a second one supersedes it (and the client polls again).
    await eventually(() => app.stats().polls === 1);
    const abort = new AbortController();
    const second = fetch(`${base}/messages?connectionId=${id}&after=4&waitMs=25000`, {
      signal: abort.signal,
    }).catch(() => undefined);
    await eventually(() =>
      exchanged.some((entry) => entry.answer === json('rest-poll-superseded')),
    );
    abort.abort();
    await second;
  });

  it('a turn longer than turnTimeoutMs, then the turn in which the agent closes', async () => {
    const more = await post(
      '/action',
      JSON.stringify({ connectionId: id, action: action('slow') }),
    );
    expect(more.text).toBe(json('rest-turn-more'));
    slow.resolve();
    const closed = await post(
      '/action',
      JSON.stringify({ connectionId: id, action: action('leave') }),
    );
    expect(closed.text).toBe(json('rest-turn-closed'));
    await transport.close();
  });

  it('the answer to a waiting poll when the server shuts down', async () => {
    const closing = createRestServer({ agent: {} });
    const listening = await listen(closing);
    const opened = await fetch(`${listening.url}/connect`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    const { connectionId } = (await opened.json()) as { connectionId: string };
    const waiting = fetch(
      `${listening.url}/messages?connectionId=${connectionId}&after=0&waitMs=60000`,
    ).then((response) => response.text());
    await eventually(() => closing.stats().polls === 1);
    await listening.close();
    expect(await waiting).toBe(json('rest-poll-restart'));
  });

  it('the answers to a poll and an action that arrive once close() was called', async () => {
    const closing = createRestServer({ agent: {} });
    const listening = await listen(closing);
    await closing.close();
    const id = 'AAAAAAAAAAAAAAAAAAAAAA';
    const polled = await fetch(`${listening.url}/messages?connectionId=${id}&after=0`);
    expect(await polled.text()).toBe(json('rest-poll-restart'));
    const refused = await fetch(`${listening.url}/action`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ connectionId: id, action: action('late') }),
    });
    expect([refused.status, await refused.text()]).toEqual([503, json('rest-shutdown-refusal')]);
    await listening.close();
  });

  it('a reset, and the connect that replaces the old connection', async () => {
    // The client's next poll is rewritten to a cursor the server has let go of.
    let stale = false;
    const client = recordedClient([], (url) => {
      if (!stale || !url.includes('/messages?')) return url;
      stale = false;
      return url.replace(/after=\d+/, 'after=1');
    });
    const recording = recordTransport(client.transport);
    await recording.until(() => recording.messages().length === 2);
    const oldId = client.transport.connectionId!;
    await eventually(() => app.stats().polls === 1);
    stale = true;
    connections.at(-1)!.send([status('a'), status('b')]);
    await recording.until(() => recording.events.some((event) => event.type === 'reset'));
    await recording.until(() => client.transport.connectionId !== undefined);
    const reset = client.exchanged.find((entry) => entry.answer.includes('"reset"'))!;
    expect(reset.answer).toBe(json('rest-poll-reset'));
    const replacing = client.exchanged.filter((entry) => entry.url.endsWith('/connect'))[1]!;
    expect(ofDoc(replacing.body!, oldId)).toBe(json('rest-connect-replaces'));

    const bye = await post(
      '/disconnect',
      JSON.stringify({ connectionId: client.transport.connectionId }),
    );
    await client.transport.close();
    expect(bye.text).toBe(json('rest-disconnect-response'));
  });

  it('goodbye, as connectRest says it', async () => {
    const client = recordedClient([]);
    const recording = recordTransport(client.transport);
    await recording.until(() => recording.messages().length === 2);
    const own = client.transport.connectionId!;
    await client.transport.close();
    const goodbye = client.exchanged.find((entry) => entry.url.endsWith('/disconnect'))!;
    expect(ofDoc(goodbye.body!, own)).toBe(json('rest-disconnect-request'));
    expect(goodbye.answer).toBe(json('rest-disconnect-response'));
  });

  it('errors: validation, unknown connection, busy agent, media type, too large', async () => {
    const { body } = await fetch(`${base}/connect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }).then(async (response) => ({ body: (await response.json()) as { connectionId: string } }));
    const connectionId = body.connectionId;
    const invalid = await post(
      '/action',
      JSON.stringify({ connectionId, action: { ...action('submit'), timestamp: 'yesterday' } }),
    );
    expect([invalid.status, invalid.text]).toEqual([400, json('rest-error-validation')]);
    const unknown = await post(
      '/action',
      JSON.stringify({ connectionId: 'AAAAAAAAAAAAAAAAAAAAAA', action: action('submit') }),
    );
    expect([unknown.status, unknown.text]).toEqual([404, json('rest-error-unknown')]);
    // One message in the works, one waiting: the third is refused.
    const held = post('/action', JSON.stringify({ connectionId, action: action('hold') }));
    await holding.promise;
    const waiting = post('/action', JSON.stringify({ connectionId, action: action('submit') }));
    await eventually(() => app.stats().queuedClientMessages === 1);
    const busy = await post('/action', JSON.stringify({ connectionId, action: action('submit') }));
    expect([busy.status, busy.headers.get('retry-after'), busy.text]).toEqual([
      503,
      '1',
      json('rest-error-busy'),
    ]);
    hold.resolve();
    await Promise.all([held, waiting]);
    const media = await post('/action', 'x', { 'content-type': 'text/plain' });
    expect([media.status, media.text]).toEqual([415, json('rest-error-media-type')]);
    const large = await post('/action', `"${'x'.repeat(1_048_576)}"`);
    expect([large.status, large.text]).toEqual([413, json('rest-error-too-large')]);
  });
});

function action(name: string) {
  return {
    name,
    surfaceId: 'main',
    sourceComponentId: 'send',
    timestamp: '2026-01-15T12:00:00.000Z',
    context: {},
  };
}
