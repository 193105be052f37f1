/**
 * `connectAgUi` with `A2uiClient`: against this package's server in every mode, against AG-UI
 * agents we did not write (a hand-written endpoint speaking CopilotKit's activity convention, and
 * one patching `state.surfaces` its own way), frontend tools, refusals and resets.
 */

import type { Server } from 'node:http';
import {
  type A2uiAgent,
  A2uiClient,
  BASIC_CATALOG_ID,
  createDefaultCatalogs,
  MessageProcessor,
  type ServerMessage,
  snapshotState,
} from '@a2ui-ts/core';
import { serveFetchApp } from '@a2ui-ts/core/host';
import { createDeferred, EXAMPLE_STREAMS, waitForClient } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { EventEncoder } from '@ag-ui/encoder';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { FAST_RECONNECT, listen, startTestServer, type TestServer } from '../../test/harness.js';
import { createAgUiServer } from '../server/create-agui-server.js';
import { type AgUiFrontendTool, connectAgUi } from './connect-agui.js';

const ALL = EXAMPLE_STREAMS.flatMap((stream) => stream.messages);
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function serve(options: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(options);
  closers.push(() => server.close());
  return server;
}

function clientOf(transport: ReturnType<typeof connectAgUi>): A2uiClient {
  const client = new A2uiClient({ transport });
  closers.push(() => client.close());
  void client.connect().catch(() => {});
  return client;
}

/** An agent whose n-th thread gets surface `s<n>` (a restarted server's is `s2`), and its actions. */
function restartingAgent() {
  let generation = 0;
  const actions: string[] = [];
  const agent: A2uiAgent = {
    onConnect(connection) {
      generation++;
      connection.send({
        version: 'v0.9',
        createSurface: { surfaceId: `s${generation}`, catalogId: BASIC_CATALOG_ID },
      });
    },
    onAction: (_connection, action) => void actions.push(action.name),
  };
  return { agent, actions };
}

/** An action on the first server's surface `s1`, sent around a restart. */
const lateAction = () => ({
  version: 'v0.9' as const,
  action: {
    name: 'late',
    surfaceId: 's1',
    sourceComponentId: 'x',
    timestamp: new Date().toISOString(),
    context: {},
  },
});

/** A surface whose root is a button with the action `press`. */
const BUTTON_SURFACE: ServerMessage[] = [
  { version: 'v0.9', createSurface: { surfaceId: 'live', catalogId: BASIC_CATALOG_ID } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'live',
      components: [
        { id: 'root', component: 'Button', child: 'label', action: { event: { name: 'press' } } },
        { id: 'label', component: 'Text', text: 'Press' },
      ],
    },
  },
];

const snapshotOf = (messages: readonly unknown[]) => {
  const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
  processor.process(structuredClone(messages));
  return JSON.parse(JSON.stringify(snapshotState(processor)));
};
const stateOf = (client: A2uiClient) => JSON.parse(JSON.stringify(snapshotState(client.processor)));

/** Serves a hand-written AG-UI endpoint: `events(input)` are the events of each run after RUN_STARTED. */
async function serveEvents(
  events: (input: {
    threadId: string;
    runId: string;
    forwardedProps?: unknown;
    messages: unknown[];
  }) => object[],
) {
  const app = new Hono();
  const encoder = new EventEncoder();
  app.post('/', async (c) => {
    const input = (await c.req.json()) as { threadId: string; runId: string; messages: unknown[] };
    const frames = [
      { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId },
      ...events(input),
      { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId },
    ].map((event) => encoder.encodeSSE(event as never));
    return c.body(frames.join(''), 200, { 'content-type': 'text/event-stream' });
  });
  const node = await listen({ fetch: app.fetch });
  closers.push(() => node.close());
  return node.url;
}

describe.each(['state', 'activity', 'tool-result'] as const)(
  'against the server in %s mode',
  (mode) => {
    it('renders every official example stream as core would, then an action’s answer', async () => {
      const agent: A2uiAgent = {
        onConnect: (connection) => {
          for (const message of ALL) connection.send(structuredClone(message));
        },
        onAction: (connection, action) =>
          connection.send({
            version: 'v0.9',
            updateDataModel: { surfaceId: action.surfaceId, path: '/answered', value: action.name },
          }),
      };
      const server = await serve({ agent, mode });
      const client = clientOf(connectAgUi({ url: server.url, reconnect: FAST_RECONNECT }));
      const expected = snapshotOf(ALL);
      await waitForClient(
        client,
        () => client.processor.getSurfaces().length === Object.keys(expected.surfaces).length,
        'every surface',
      );
      await waitForClient(
        client,
        () => JSON.stringify(stateOf(client)) === JSON.stringify(expected),
        'the whole stream',
      );
      const surfaceId = Object.keys(expected.surfaces)[0]!;
      await client.send({
        version: 'v0.9',
        action: {
          name: 'ping',
          surfaceId,
          sourceComponentId: 'x',
          timestamp: new Date().toISOString(),
          context: {},
        },
      });
      expect(client.processor.getSurface(surfaceId)!.dataModel.get('/answered')).toBe('ping');
    });
  },
);

describe('frontend tools', () => {
  it('runs the page’s handler when a run ends with a call to it, and the next run carries the result', async () => {
    const agent: A2uiAgent = {
      onConnect: (connection) =>
        connection.send([
          { version: 'v0.9', createSurface: { surfaceId: 'clock', catalogId: BASIC_CATALOG_ID } },
          {
            version: 'v0.9',
            updateComponents: {
              surfaceId: 'clock',
              components: [{ id: 'root', component: 'Text', text: { path: '/zone' } }],
            },
          },
        ]),
      async onAction(connection) {
        const result = await connection.callHostTool({
          name: 'getTimeZone',
          args: { style: 'iana' },
        });
        connection.send({
          version: 'v0.9',
          updateDataModel: { surfaceId: 'clock', path: '/zone', value: result.content },
        });
        const failed = await connection.callHostTool({ name: 'confirm', args: {} });
        connection.send({
          version: 'v0.9',
          updateDataModel: {
            surfaceId: 'clock',
            path: '/confirm',
            value: failed.error ?? 'no error',
          },
        });
      },
    };
    const server = await serve({ agent, mode: 'activity' });
    const calls: unknown[] = [];
    const tools: AgUiFrontendTool[] = [
      {
        name: 'getTimeZone',
        description: 'The user’s IANA time zone',
        handler: (args) => {
          calls.push(args);
          return 'Europe/Paris';
        },
      },
      {
        name: 'confirm',
        description: 'Asks the user',
        handler: () => {
          throw new Error('declined');
        },
      },
    ];
    const transport = connectAgUi({ url: server.url, tools, reconnect: FAST_RECONNECT });
    const client = clientOf(transport);
    await waitForClient(
      client,
      () => client.processor.getSurface('clock') !== undefined,
      'the clock',
    );
    await client.send({
      version: 'v0.9',
      action: {
        name: 'zone',
        surfaceId: 'clock',
        sourceComponentId: 'root',
        timestamp: new Date().toISOString(),
        context: {},
      },
    });
    await waitForClient(
      client,
      () => client.processor.getSurface('clock')!.dataModel.get('/confirm') !== undefined,
      'both tool results',
    );
    expect(calls).toEqual([{ style: 'iana' }]);
    expect(client.processor.getSurface('clock')!.dataModel.get('/zone')).toBe('Europe/Paris');
    expect(client.processor.getSurface('clock')!.dataModel.get('/confirm')).toBe('declined');
    expect(server.app.stats().pendingToolCalls).toBe(0);
    expect(transport.agent.messages.filter((message) => message.role === 'tool')).toHaveLength(2);
  });
});

describe('polling', () => {
  it('collects what the agent sent between runs with an empty run once the thread was idle', async () => {
    let connection: Parameters<NonNullable<A2uiAgent['onConnect']>>[0] | undefined;
    const server = await serve({
      mode: 'state',
      agent: {
        onConnect(opened) {
          connection = opened;
          opened.send({
            version: 'v0.9',
            createSurface: { surfaceId: 'live', catalogId: BASIC_CATALOG_ID },
          });
        },
      },
    });
    const transport = connectAgUi({
      url: server.url,
      pollIntervalMs: 20,
      reconnect: FAST_RECONNECT,
    });
    const client = clientOf(transport);
    await waitForClient(
      client,
      () => client.processor.getSurface('live') !== undefined,
      'the surface',
    );
    connection!.send({
      version: 'v0.9',
      updateDataModel: { surfaceId: 'live', path: '/pushed', value: 1 },
    });
    await waitForClient(
      client,
      () => client.processor.getSurface('live')!.dataModel.get('/pushed') === 1,
      'the push',
    );
    expect(transport.runs).toBeGreaterThan(1);
    await client.close();
    // The closing run ended the thread; no poll brought it back.
    await eventually(() => server.app.stats().sessions === 0);
    expect(transport.status).toBe('closed');
  });
});

describe.each(['state', 'activity'] as const)('long polling in %s mode', (mode) => {
  it('streams what the agent sends between runs as it is sent, in the open waiting run, and an action never waits behind it', async () => {
    const gates = [createDeferred<void>(), createDeferred<void>(), createDeferred<void>()];
    const actions: string[] = [];
    const server = await serve({
      mode,
      // A waiting run the client failed to end would outlast the test.
      maxRunWaitMs: 600_000,
      agent: {
        onConnect(connection) {
          connection.send(structuredClone(BUTTON_SURFACE));
        },
        onAction(connection, action) {
          actions.push(action.name);
          if (actions.length > 1) return;
          // Paced by the test, beside the turn (as the demo's gallery streams).
          void (async () => {
            for (const [index, gate] of gates.entries()) {
              await gate.promise;
              connection.send({
                version: 'v0.9',
                updateDataModel: { surfaceId: 'live', path: '/n', value: index },
              });
            }
          })();
        },
      },
    });
    const transport = connectAgUi({ url: server.url, longPoll: true, reconnect: FAST_RECONNECT });
    const client = clientOf(transport);
    await waitForClient(
      client,
      () => client.processor.getSurface('live')?.components.has('root') === true,
      'the surface',
    );
    await client.dispatchAction('live', 'root');
    const value = () => client.processor.getSurface('live')!.dataModel.get('/n');
    // The action's run is over; the waiting run is open on the server.
    await eventually(() => server.app.stats().runs === 1 && transport.pendingMessages === 0);
    const runsBefore = transport.runs;
    gates[0]!.resolve();
    await waitForClient(client, () => value() === 0, 'the first message');
    gates[1]!.resolve();
    await waitForClient(client, () => value() === 1, 'the second message');
    // Both came in the run that was open before the agent sent them.
    expect(transport.runs).toBe(runsBefore);
    await client.dispatchAction('live', 'root');
    expect(actions).toEqual(['press', 'press']);
    gates[2]!.resolve();
    await waitForClient(client, () => value() === 2, 'the third message');
    await client.close();
    await eventually(() => server.app.stats().sessions === 0 && server.app.stats().runs === 0);
  });
});

describe('AG-UI agents we did not write', () => {
  const surface = (id: string, text: string, data: Record<string, unknown>) => [
    { version: 'v0.9', createSurface: { surfaceId: id, catalogId: BASIC_CATALOG_ID } },
    {
      version: 'v0.9',
      updateComponents: { surfaceId: id, components: [{ id: 'root', component: 'Text', text }] },
    },
    { version: 'v0.9', updateDataModel: { surfaceId: id, path: '/', value: data } },
  ];

  it('renders CopilotKit-style cumulative activity snapshots (one message per tool call) and tool results', async () => {
    let runs = 0;
    const url = await serveEvents(() => {
      runs++;
      const content = { a2ui_operations: surface('card', `version ${runs}`, { n: runs }) };
      return [
        {
          type: 'ACTIVITY_SNAPSHOT',
          messageId: `a2ui-surface-call-${runs}`,
          activityType: 'a2ui-surface',
          content,
          replace: true,
        },
        {
          type: 'ACTIVITY_SNAPSHOT',
          messageId: 'other',
          activityType: 'something-else',
          content: { x: 1 },
        },
        { type: 'TOOL_CALL_START', toolCallId: `c${runs}`, toolCallName: 'render' },
        { type: 'TOOL_CALL_END', toolCallId: `c${runs}` },
        {
          type: 'TOOL_CALL_RESULT',
          messageId: `r${runs}`,
          toolCallId: `c${runs}`,
          content: JSON.stringify(
            JSON.stringify({ a2ui_operations: surface('note', 'from a tool', { ok: true }) }),
          ),
        },
      ];
    });
    const transport = connectAgUi({ url, reconnect: FAST_RECONNECT });
    const client = clientOf(transport);
    const errors: unknown[] = [];
    client.processor.onError((error) => errors.push(error));
    await waitForClient(
      client,
      () => client.processor.getSurface('note') !== undefined,
      'both surfaces',
    );
    await transport.run({ text: 'again' });
    expect(stateOf(client)).toEqual(
      snapshotOf([
        ...surface('card', 'version 2', { n: 2 }),
        ...surface('note', 'from a tool', { ok: true }),
      ]),
    );
    // A repeated createSurface with the same settings is reconciled away, not reported.
    expect(errors).toEqual([]);
  });

  it('renders state.surfaces patched its own way: array inserts, removals, moves, whole surfaces', async () => {
    let step = 0;
    const base = {
      catalogId: BASIC_CATALOG_ID,
      components: { root: { id: 'root', component: 'Text', text: 'x' } },
      dataModel: { list: ['a', 'b', 'c'], keep: 1 },
    };
    const url = await serveEvents(() => {
      step++;
      if (step === 1)
        return [{ type: 'STATE_SNAPSHOT', snapshot: { app: 1, surfaces: { s: base } } }];
      if (step > 2) return [];
      return [
        {
          type: 'STATE_DELTA',
          delta: [
            { op: 'add', path: '/surfaces/s/dataModel/list/1', value: 'inserted' },
            { op: 'remove', path: '/surfaces/s/dataModel/keep' },
            {
              op: 'move',
              from: '/surfaces/s/dataModel/list/0',
              path: '/surfaces/s/dataModel/first',
            },
            { op: 'replace', path: '/surfaces/s/components/root/text', value: 'y' },
            { op: 'add', path: '/surfaces/t', value: { ...base, catalogId: BASIC_CATALOG_ID } },
          ],
        },
        {
          type: 'STATE_DELTA',
          delta: [
            { op: 'remove', path: '/surfaces/t' },
            { op: 'add', path: '/surfaces/s/dataModel/list/-', value: 'end' },
          ],
        },
      ];
    });
    const transport = connectAgUi({ url, reconnect: FAST_RECONNECT });
    const client = clientOf(transport);
    await waitForClient(
      client,
      () => client.processor.getSurface('s') !== undefined,
      'the surface',
    );
    await transport.run();
    const model = client.processor.getSurface('s')!.dataModel;
    expect(model.getSnapshot()).toEqual({ list: ['inserted', 'b', 'c', 'end'], first: 'a' });
    expect(client.processor.getSurface('s')!.components.get('root')!.properties).toMatchObject({
      text: 'y',
    });
    expect(client.processor.getSurface('t')).toBeUndefined();
    expect((transport.agent.state as { app: number }).app).toBe(1);
  });
});

describe('refusals and resets', () => {
  it('closes with UNAUTHORIZED when the endpoint answers 401, without retrying', async () => {
    const server = await serve({
      agent: {},
      authenticate: (request) => request.headers.get('authorization') ?? undefined,
    });
    const transport = connectAgUi({ url: server.url, reconnect: FAST_RECONNECT });
    const client = new A2uiClient({ transport });
    closers.push(() => client.close());
    await expect(client.connect()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(transport.status).toBe('closed');
    expect(transport.runs).toBe(1);
  });

  it('retries the opening run with backoff while the endpoint is down', async () => {
    let refusals = 3;
    const server = await serve({
      agent: {
        onConnect: (connection) =>
          connection.send({
            version: 'v0.9',
            createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
          }),
      },
      configure: (parent) =>
        parent.use('/agent', async (c, next) => {
          if (refusals-- > 0)
            return c.json({ error: { code: 'LIMIT_EXCEEDED', message: 'down' } }, 503, {
              'Retry-After': '0',
            });
          return next();
        }),
    });
    const transport = connectAgUi({ url: server.url, reconnect: FAST_RECONNECT });
    const client = clientOf(transport);
    const statuses: string[] = [];
    client.subscribe((event) => {
      if (event.type === 'status') statuses.push(event.status);
    });
    await waitForClient(
      client,
      () => client.processor.getSurface('s') !== undefined,
      'the surface',
    );
    expect(transport.runs).toBe(4);
    expect(statuses.filter((status) => status === 'reconnecting')).toHaveLength(3);
    expect(statuses.at(-1)).toBe('open');
  });

  it('resets when the server no longer knows the thread: old surfaces gone, the pending action refused', async () => {
    const { agent } = restartingAgent();
    const first = await serve({ agent, mode: 'activity' });
    // Restart behind the same URL: a proxy in front of whichever server is up.
    let target = first.url;
    const proxy = new Hono();
    proxy.post('/', (c) =>
      fetch(target, {
        method: 'POST',
        headers: c.req.raw.headers,
        body: c.req.raw.body,
        duplex: 'half',
      } as RequestInit),
    );
    const front = await listen({ fetch: proxy.fetch });
    closers.push(() => front.close());
    const transport = connectAgUi({ url: front.url, reconnect: FAST_RECONNECT });
    const client = clientOf(transport);
    const resets: string[] = [];
    client.subscribe((event) => {
      if (event.type === 'reset') resets.push(event.reason ?? '');
    });
    await waitForClient(
      client,
      () => client.processor.getSurface('s1') !== undefined,
      'the first surface',
    );
    const second = await serve({ agent, mode: 'activity' });
    target = second.url;
    const sent = client.send(lateAction());
    await expect(sent).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await waitForClient(
      client,
      () => client.processor.getSurface('s2') !== undefined,
      'the new surface',
    );
    expect(resets).toHaveLength(1);
    expect(client.processor.getSurface('s1')).toBeUndefined();
    await client.close();
  });

  it.each(['state', 'activity'] as const)(
    '%s mode: a server restart resets the client with a reason; an action queued while it was down is refused with CONNECTION_CLOSED, never applied',
    async (mode) => {
      const { agent, actions } = restartingAgent();
      const start = (port: number) =>
        serveFetchApp(
          createAgUiServer({ agent, mode }),
          (adaptor) => createAdaptorServer(adaptor) as Server,
          { port },
        );
      const first = await start(0);
      const port = first.port;
      let refused = 0;
      const transport = connectAgUi({
        url: `http://127.0.0.1:${port}`,
        longPoll: true,
        reconnect: FAST_RECONNECT,
        fetch: (input, init) => {
          const response = globalThis.fetch(input, init);
          response.catch(() => refused++);
          return response;
        },
      });
      const client = clientOf(transport);
      const resets: string[] = [];
      client.subscribe((event) => {
        if (event.type === 'reset') resets.push(event.reason ?? '');
      });
      await waitForClient(client, () => client.processor.getSurface('s1') !== undefined, 's1');
      await first.close();
      const sent = client.send(lateAction());
      const outcome = sent.then(
        () => 'applied',
        (error: { code?: string }) => error.code,
      );
      // The action was tried, and refused, while no server listened.
      await eventually(() => refused >= 3);
      const second = await start(port);
      closers.push(() => second.close());
      expect(await outcome).toBe('CONNECTION_CLOSED');
      await waitForClient(client, () => client.processor.getSurface('s2') !== undefined, 's2');
      expect(resets).toEqual([expect.stringContaining('unknown-connection')]);
      expect(client.processor.getSurface('s1')).toBeUndefined();
      expect(actions).toEqual([]);
      await client.close();
    },
  );
});
