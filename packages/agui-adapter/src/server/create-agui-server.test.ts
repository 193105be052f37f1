/**
 * The server's own rules over HTTP, against a real server on 127.0.0.1: refusals before the
 * stream (status and JSON body), threads per principal, idempotent runs, what a cut run means for
 * the next one, keep-alive comments, the middleware's duplicate of an action, and cleanup.
 */
import {
  type A2uiAgent,
  type ActionEvent,
  type AgentInput,
  BASIC_CATALOG_ID,
  COPILOTKIT_CATALOG_IDS,
  type Connection,
  type DisconnectReason,
  type ServerMessage,
} from '@a2ui-ts/core';
import { createDeferred } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { HttpAgent } from '@ag-ui/client';
import { describe, expect, it } from 'vitest';
import { useTestServers } from '../../test/harness.js';
import { runPeer, typesOf } from '../../test/peers.js';

const serve = useTestServers();

const form: ServerMessage[] = [
  { version: 'v0.9', createSurface: { surfaceId: 'form', catalogId: BASIC_CATALOG_ID } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'form',
      components: [
        { id: 'root', component: 'Button', child: 'label', action: { event: { name: 'submit' } } },
        { id: 'label', component: 'Text', text: 'Send' },
      ],
    },
  },
];

const action = (name: string, surfaceId = 'form') => ({
  version: 'v0.9',
  action: {
    name,
    surfaceId,
    sourceComponentId: 'root',
    timestamp: '2026-09-22T10:00:00.000Z',
    context: {},
  },
});

function recorder(extra: Partial<A2uiAgent> = {}) {
  const actions: ActionEvent[] = [];
  const connections: Connection[] = [];
  const disconnects: DisconnectReason[] = [];
  const agent: A2uiAgent = {
    onConnect(connection) {
      connections.push(connection);
      connection.send(structuredClone(form));
    },
    onAction(connection, event) {
      actions.push(event);
      connection.send({
        version: 'v0.9',
        updateDataModel: { surfaceId: 'form', path: '/last', value: event.name },
      });
    },
    onDisconnect: (_connection, reason) => void disconnects.push(reason),
    ...extra,
  };
  return { agent, actions, connections, disconnects };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** The AG-UI events of a response body. */
async function eventsOf(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice(6)));
}

/** Reads `response` until `marker` appears or the body ends. */
async function readUntil(
  response: Response,
  marker: string,
  reader = response.body!.getReader(),
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(marker)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text;
}

const run = (threadId: string, runId: string, extra: Record<string, unknown> = {}) => ({
  threadId,
  runId,
  messages: [],
  state: {},
  ...extra,
});

describe('refusals before the stream', () => {
  it('answers 4xx with a JSON body for bad input, and another thread is undisturbed', async () => {
    const { agent, actions } = recorder();
    const server = await serve({
      agent,
      mode: 'activity',
      maxRequestBytes: 4_096,
      maxClientMessageBytes: 1_024,
    });
    const good = new HttpAgent({ url: server.url });
    expect(typesOf(await runPeer(good))).toContain('ACTIVITY_SNAPSHOT');

    const cases: Array<[string, Response, number, string]> = [
      ['not JSON', await post(server.url, '{"threadId":'), 400, 'INVALID_JSON'],
      [
        'not a RunAgentInput',
        await post(server.url, { threadId: 5, runId: 'r' }),
        400,
        'VALIDATION_FAILED',
      ],
      [
        'an invalid action',
        await post(
          server.url,
          run('t1', 'r1', {
            forwardedProps: { a2uiAction: { version: 'v0.9', action: { name: 3 } } },
          }),
        ),
        400,
        'VALIDATION_FAILED',
      ],
      [
        'an oversized action',
        await post(
          server.url,
          run('t1', 'r2', { forwardedProps: { a2uiAction: action('x'.repeat(2_000)) } }),
        ),
        413,
        'MESSAGE_TOO_LARGE',
      ],
      [
        'an oversized body',
        await post(server.url, run('t1', 'r3', { state: { blob: 'x'.repeat(5_000) } })),
        413,
        'MESSAGE_TOO_LARGE',
      ],
      [
        'another content type',
        await fetch(server.url, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: '{}',
        }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      ['another method', await fetch(server.url), 405, 'METHOD_NOT_ALLOWED'],
    ];
    for (const [name, response, status, code] of cases) {
      expect(response.status, name).toBe(status);
      expect(((await response.json()) as { error: { code: string } }).error.code, name).toBe(code);
    }
    // An action on a surface the thread does not hold, on the thread that does exist.
    const unknown = await post(
      server.url,
      run(good.threadId, 'r4', { forwardedProps: { a2uiAction: action('go', 'nope') } }),
    );
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', path: '/forwardedProps/a2uiAction/surfaceId' },
    });
    // The HttpAgent sees the refusal as a failed run with the status.
    const refused = await runPeer(good, { forwardedProps: { a2uiAction: action('go', 'nope') } });
    expect((refused.failure as { status?: number } | undefined)?.status).toBe(400);
    const fine = await runPeer(good, { forwardedProps: { a2uiAction: action('go') } });
    // The action's answer, then the thread's seq in the state (once per tick).
    expect(typesOf(fine)).toEqual(['RUN_STARTED', 'ACTIVITY_DELTA', 'STATE_DELTA', 'RUN_FINISHED']);
    expect(actions.map((event) => event.name)).toEqual(['go']);
  });

  it('refuses a v1.0 client message on a run that negotiated v0.9 with 400 NOT_SUPPORTED, and an uncarried version at its version; the thread goes on', async () => {
    const { agent, actions } = recorder();
    const server = await serve({ agent, mode: 'activity' });
    const client = new HttpAgent({ url: server.url });
    // An old client: it offers v0.9 only.
    const opened = await runPeer(client, { forwardedProps: { a2uiVersions: ['v0.9'] } });
    expect(client.state).toMatchObject({ a2uiVersion: 'v0.9' });
    expect(typesOf(opened)).toContain('ACTIVITY_SNAPSHOT');
    const v10 = {
      version: 'v1.0',
      action: { ...action('v1').action, userMessage: 'Book it' },
    };
    const v10Error = {
      version: 'v1.0',
      error: { code: 'CUSTOM', functionCallId: 'f1', message: 'oops' },
    };
    for (const [props, what] of [
      [{ a2uiAction: v10 }, 'a v1.0 action'],
      [{ a2uiError: v10Error }, 'a v1.0 error'],
      [
        {
          a2uiFunctionCall: {
            version: 'v1.0',
            callAgentFunction: {
              surfaceId: 'main',
              functionCallId: 'c1',
              callFunction: { call: 'f' },
            },
          },
        },
        'a v1.0 function call',
      ],
    ] as const) {
      const refused = await post(
        server.url,
        run(client.threadId, crypto.randomUUID(), {
          forwardedProps: { a2uiVersions: ['v0.9'], ...props },
        }),
      );
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: unknown }).error).toMatchObject({
        code: 'NOT_SUPPORTED',
        message: `The run carries ${what}; it negotiated v0.9, so v1.0 messages are not available on it.`,
      });
    }
    const v08 = await post(
      server.url,
      run(client.threadId, crypto.randomUUID(), {
        forwardedProps: { a2uiVersions: ['v0.9'], a2uiAction: { ...v10, version: 'v0.8' } },
      }),
    );
    expect(v08.status).toBe(400);
    expect(await v08.json()).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: "This thread speaks A2UI v1.0, v0.9; the client message is 'v0.8'.",
        path: '/forwardedProps/a2uiAction/version',
      },
    });
    expect(actions).toEqual([]);
    // The thread is intact: a v0.9 action on it is answered.
    const fine = await runPeer(client, {
      forwardedProps: { a2uiVersions: ['v0.9'], a2uiAction: action('go') },
    });
    expect(fine.failure).toBeUndefined();
    expect(actions.map((event) => event.name)).toEqual(['go']);
  });

  it('refuses a body nested 100,000 levels deep anywhere, and bad metadata of a run without an action, with 400 before the stream', async () => {
    const inputs: AgentInput[] = [];
    const { agent, actions, connections } = recorder({
      onInput: (_connection, input) => void inputs.push(input),
    });
    const server = await serve({ agent });
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const body = (threadId: string, members: string) =>
      `{"threadId":"${threadId}","runId":"r","messages":[{"id":"m","role":"user","content":"hi"}]${members}}`;
    const cases: Array<[string, string, string]> = [
      ['state', `,"state":{"x":${deep}}`, '/state/x/0'],
      ['forwardedProps', `,"forwardedProps":{"x":${deep}}`, '/forwardedProps/x/0'],
      [
        'a tool’s parameters',
        `,"tools":[{"name":"t","description":"d","parameters":{"x":${deep}}}]`,
        '/tools/0/parameters/x/0',
      ],
      [
        'the action’s context',
        `,"forwardedProps":{"a2uiAction":${JSON.stringify(action('go')).replace('"context":{}', `"context":{"x":${deep}}`)}}`,
        '/forwardedProps/a2uiAction/action/context/x/0',
      ],
    ];
    for (const [where, members, path] of cases) {
      const response = await post(server.url, body(`deep-${where}`, members));
      expect(response.status, where).toBe(400);
      const answer = (await response.json()) as { error: { code: string; path: string } };
      expect(answer.error.code, where).toBe('VALIDATION_FAILED');
      expect(answer.error.path.startsWith(path), where).toBe(true);
    }
    // Capabilities that are not valid, on a run that carries only user text.
    const capabilities = await post(
      server.url,
      body(
        'caps',
        ',"forwardedProps":{"a2uiClientCapabilities":{"v0.9":{"supportedCatalogIds":"basic"}}}',
      ),
    );
    expect(capabilities.status).toBe(400);
    expect(await capabilities.json()).toMatchObject({
      error: {
        code: 'VALIDATION_FAILED',
        path: '/forwardedProps/a2uiClientCapabilities/v0.9/supportedCatalogIds',
      },
    });
    expect(connections).toEqual([]);
    expect(inputs).toEqual([]);
    expect(actions).toEqual([]);
    expect(server.app.stats().sessions).toBe(0);
    // The server keeps serving.
    expect(typesOf(await runPeer(new HttpAgent({ url: server.url })))).toContain('RUN_FINISHED');
  });

  it('refuses without authentication (401), and keeps each principal’s threads apart', async () => {
    const { agent, actions, connections } = recorder();
    const server = await serve({
      agent,
      mode: 'state',
      authenticate: (request) => request.headers.get('authorization') ?? undefined,
    });
    expect((await post(server.url, run('t', 'r'))).status).toBe(401);
    const alice = new HttpAgent({ url: server.url, headers: { authorization: 'alice' } });
    await runPeer(alice);
    // Mallory names Alice's thread: she gets a thread of her own, and her action is not Alice's.
    const mallory = new HttpAgent({
      url: server.url,
      headers: { authorization: 'mallory' },
      threadId: alice.threadId,
    });
    const hers = await runPeer(mallory, { forwardedProps: { a2uiAction: action('stolen') } });
    expect(hers.failure).toBeUndefined();
    expect(hers.events.find((event) => event.type === 'CUSTOM')).toMatchObject({
      name: 'a2ui.reset',
    });
    expect(connections).toHaveLength(2);
    expect(connections[0]!.id).not.toBe(connections[1]!.id);
    expect(actions).toEqual([]);
    await runPeer(alice, { forwardedProps: { a2uiAction: action('mine') } });
    expect(actions.map((event) => event.name)).toEqual(['mine']);
    expect(connections[0]!.closed).toBe(false);
  });

  it('keeps threads apart whatever characters principals and thread ids contain', async () => {
    const { agent, actions, connections } = recorder();
    const server = await serve({
      agent,
      mode: 'state',
      authenticate: (request) => decodeURIComponent(request.headers.get('authorization') ?? ''),
    });
    // Principal `a\0b` with thread `c`, and principal `a` with thread `b\0c`: one text once joined.
    const alice = new HttpAgent({
      url: server.url,
      headers: { authorization: 'a%00b' },
      threadId: 'c',
    });
    await runPeer(alice);
    const mallory = new HttpAgent({
      url: server.url,
      headers: { authorization: 'a' },
      threadId: 'b\u0000c',
    });
    await runPeer(mallory, { forwardedProps: { a2uiAction: action('stolen') } });
    expect(connections).toHaveLength(2);
    expect(actions).toEqual([]);
  });
});

describe('input', () => {
  it('gives the agent new user text, tools, context, the host’s own state and sendDataModel data models', async () => {
    const inputs: AgentInput[] = [];
    const metadata: unknown[] = [];
    const rec = recorder({
      onConnect(connection) {
        connection.send([
          {
            version: 'v0.9',
            createSurface: { surfaceId: 'form', catalogId: BASIC_CATALOG_ID, sendDataModel: true },
          },
          ...form.slice(1),
        ]);
      },
      onInput: (_connection, input) => void inputs.push(input),
      onAction: (_connection, _action, meta) => void metadata.push(meta?.a2uiClientDataModel),
    });
    const server = await serve({ agent: rec.agent, mode: 'state' });
    const client = new HttpAgent({ url: server.url, initialState: { cart: ['tea'] } });
    const tools = [{ name: 'getTimeZone', description: 'zone', parameters: { type: 'object' } }];
    const context = [{ description: 'page', value: '/checkout' }];
    client.addMessage({ id: 'u1', role: 'user', content: [{ type: 'text', text: 'Hello' }] });
    await runPeer(client, { tools, context, forwardedProps: { locale: 'fr' } });
    expect(inputs).toEqual([
      { text: 'Hello', tools, context, state: { cart: ['tea'] }, extras: { locale: 'fr' } },
    ]);
    // The same input again: nothing new for onInput. The page edited the form's data in state.
    const state = structuredClone(client.state) as { surfaces: { form: { dataModel: unknown } } };
    state.surfaces.form.dataModel = { typed: 'Ada' };
    client.setState(state);
    await runPeer(client, {
      tools,
      context,
      forwardedProps: { locale: 'fr', a2uiAction: action('send') },
    });
    expect(inputs).toHaveLength(1);
    expect(metadata).toEqual([{ version: 'v0.9', surfaces: { form: { typed: 'Ada' } } }]);
  });
});

describe('runs of a thread', () => {
  it('delivers a retried run (same runId) once', async () => {
    const { agent, actions } = recorder();
    const server = await serve({ agent, mode: 'activity' });
    const client = new HttpAgent({ url: server.url });
    await runPeer(client);
    for (let attempt = 0; attempt < 2; attempt++)
      await runPeer(client, { runId: 'same-run', forwardedProps: { a2uiAction: action('once') } });
    expect(actions.map((event) => event.name)).toEqual(['once']);
  });

  it('takes the middleware’s log_a2ui_event pair as the action when a2uiAction is absent, once', async () => {
    const { agent, actions } = recorder();
    const server = await serve({ agent, mode: 'activity' });
    const client = new HttpAgent({ url: server.url });
    await runPeer(client);
    const userAction = {
      name: 'logged',
      surfaceId: 'form',
      sourceComponentId: 'root',
      timestamp: '2026-09-22T10:00:00.000Z',
    };
    const pair = [
      {
        id: 'a1',
        role: 'assistant',
        toolCalls: [
          {
            id: 'call-1',
            type: 'function',
            function: { name: 'log_a2ui_event', arguments: JSON.stringify(userAction) },
          },
        ],
      },
      { id: 'm1', role: 'tool', toolCallId: 'call-1', content: 'User performed action "logged"' },
    ];
    for (let attempt = 0; attempt < 2; attempt++)
      await eventsOf(
        await post(server.url, run(client.threadId, `r${attempt}`, { messages: pair })),
      );
    expect(actions).toEqual([{ ...userAction, context: {} }]);
  });

  it.each(['state', 'activity'] as const)(
    '%s mode: after a run the client cut short, its next run brings exactly the messages its a2uiSeq says it lacks',
    async (mode) => {
      const gate = createDeferred<void>();
      const { agent } = recorder({
        async onAction(connection) {
          connection.send({
            version: 'v0.9',
            updateDataModel: { surfaceId: 'form', path: '/step', value: 1 },
          });
          await gate.promise;
          connection.send({
            version: 'v0.9',
            updateDataModel: { surfaceId: 'form', path: '/step', value: 2 },
          });
        },
      });
      const server = await serve({ agent, mode });
      const client = new HttpAgent({ url: server.url });
      await runPeer(client);
      const controller = new AbortController();
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          run(client.threadId, 'cut', {
            state: client.state,
            forwardedProps: { a2uiAction: action('go') },
          }),
        ),
        signal: controller.signal,
      });
      expect(await readUntil(response, '/step"')).toContain('/step"');
      controller.abort();
      // The server notices that its client went away.
      await eventually(() => server.app.stats().runs === 0);
      gate.resolve();
      const next = await runPeer(client);
      expect(next.failure).toBeUndefined();
      // The stock client never saw the cut run: both steps come again, as deltas, no snapshot.
      const types = typesOf(next);
      expect(types).not.toContain(mode === 'state' ? 'STATE_SNAPSHOT' : 'ACTIVITY_SNAPSHOT');
      expect(
        types.filter((type) => type === (mode === 'state' ? 'STATE_DELTA' : 'ACTIVITY_DELTA')),
      ).toHaveLength(2);
      if (mode === 'state')
        expect(
          (client.state as { surfaces: { form: { dataModel: unknown } } }).surfaces.form.dataModel,
        ).toEqual({ step: 2 });
      else {
        const operations = client.messages
          .filter((message) => message.role === 'activity')
          .flatMap(
            (message) =>
              (message as unknown as { content: { a2ui_operations: unknown[] } }).content
                .a2ui_operations,
          );
        expect(operations.at(-1)).toMatchObject({
          updateDataModel: { surfaceId: 'form', path: '/step', value: 2 },
        });
      }
    },
  );

  it('sends keep-alive comments while the agent is silent, and RUN_FINISHED when its turn ends', async () => {
    const gate = createDeferred<void>();
    const { agent } = recorder({
      async onAction(connection) {
        await gate.promise;
        connection.send({
          version: 'v0.9',
          updateDataModel: { surfaceId: 'form', path: '/done', value: true },
        });
      },
    });
    const server = await serve({ agent, mode: 'activity', keepAliveIntervalMs: 10 });
    const client = new HttpAgent({ url: server.url });
    await runPeer(client);
    const response = await post(
      server.url,
      run(client.threadId, 'slow', { forwardedProps: { a2uiAction: action('go') } }),
    );
    const reader = response.body!.getReader();
    let text = await readUntil(response, ': keepalive\n\n', reader);
    expect(text).toContain(': keepalive\n\n');
    expect(server.app.stats().keepAliveTimer).toBe(true);
    gate.resolve();
    text += await readUntil(response, '\u0000', reader);
    expect(text.indexOf('"RUN_STARTED"')).toBeLessThan(text.indexOf(': keepalive'));
    expect(
      text
        .trimEnd()
        .endsWith(`"type":"RUN_FINISHED","threadId":"${client.threadId}","runId":"slow"}`),
    ).toBe(true);
    expect(server.app.stats()).toMatchObject({ runs: 0, keepAliveTimer: false });
  });

  it('ends the thread on a2uiDisconnect and forgets it; the agent closing it ends the run', async () => {
    const { agent, disconnects } = recorder();
    const server = await serve({ agent, mode: 'state' });
    const client = new HttpAgent({ url: server.url });
    await runPeer(client);
    expect(server.app.stats()).toMatchObject({ sessions: 1, threads: 1 });
    const bye = await runPeer(client, { forwardedProps: { a2uiDisconnect: true } });
    expect(typesOf(bye)).toEqual(['RUN_STARTED', 'CUSTOM', 'RUN_FINISHED']);
    await eventually(() => disconnects.length === 1);
    expect(disconnects).toEqual(['client-closed']);
    expect(server.app.stats()).toMatchObject({ sessions: 0, threads: 0, runs: 0 });

    const closing = recorder({ onAction: (connection) => connection.close() });
    const other = await serve({ agent: closing.agent, mode: 'state' });
    const second = new HttpAgent({ url: other.url });
    await runPeer(second);
    const last = await runPeer(second, { forwardedProps: { a2uiAction: action('quit') } });
    expect(last.failure).toBeUndefined();
    expect(last.events.find((event) => event.type === 'CUSTOM')).toMatchObject({
      name: 'a2ui.closed',
      value: { reason: 'server-closed' },
    });
    expect(typesOf(last).at(-1)).toBe('RUN_FINISHED');
  });

  it('starts the thread over when what the agent sent between runs outgrew the replay log', async () => {
    const rec = recorder();
    const server = await serve({ agent: rec.agent, mode: 'state', replayBuffer: { maxEvents: 5 } });
    const client = new HttpAgent({ url: server.url });
    await runPeer(client);
    for (let index = 0; index < 20; index++)
      rec.connections[0]!.send({
        version: 'v0.9',
        updateDataModel: { surfaceId: 'form', path: '/n', value: index },
      });
    const next = await runPeer(client);
    expect(next.failure).toBeUndefined();
    expect(next.events.find((event) => event.type === 'CUSTOM')).toMatchObject({
      name: 'a2ui.reset',
    });
    expect(typesOf(next).at(-1)).toBe('RUN_FINISHED');
    expect(rec.connections).toHaveLength(2);
    expect(rec.connections[0]!.closed).toBe(true);
    // The client holds the new thread's surfaces, and the thread keeps its id.
    const surfaces = (client.state as { surfaces: Record<string, { dataModel: unknown }> })
      .surfaces;
    expect(Object.keys(surfaces)).toEqual(['form']);
    expect(surfaces.form!.dataModel).toEqual({});
    expect(rec.connections[1]!.id).toBe(rec.connections[0]!.id);
    await eventually(() => server.app.stats().sessions === 1);
  });

  it('holds a waiting run (a2uiWait) open, streaming each message the agent sends as it sends it, until a2uiRelease ends it (204)', async () => {
    const rec = recorder();
    const server = await serve({ agent: rec.agent, mode: 'activity', maxRunWaitMs: 600_000 });
    const client = new HttpAgent({ url: server.url });
    await runPeer(client);
    const response = await post(
      server.url,
      run(client.threadId, 'wait', { forwardedProps: { a2uiWait: true } }),
    );
    const reader = response.body!.getReader();
    let text = await readUntil(response, '"RUN_STARTED"', reader);
    for (const value of [1, 2]) {
      rec.connections[0]!.send({
        version: 'v0.9',
        updateDataModel: { surfaceId: 'form', path: '/n', value },
      });
      text += await readUntil(response, `"value":${value}}`, reader);
      expect(text).not.toContain('RUN_FINISHED');
    }
    // A request that is not a run: the thread's waiting run ends, nothing else happens.
    const release = await post(
      server.url,
      run(client.threadId, 'release', { forwardedProps: { a2uiRelease: true } }),
    );
    expect(release.status).toBe(204);
    text += await readUntil(response, '\u0000', reader);
    expect(
      text
        .trimEnd()
        .endsWith(`"type":"RUN_FINISHED","threadId":"${client.threadId}","runId":"wait"}`),
    ).toBe(true);
    expect(text.match(/ACTIVITY_DELTA/g)).toHaveLength(2);
    expect(rec.actions).toEqual([]);
    // A run of the thread ends the waiting run too, and then runs.
    const second = await post(
      server.url,
      run(client.threadId, 'wait-2', { forwardedProps: { a2uiWait: true } }),
    );
    const secondReader = second.body!.getReader();
    await readUntil(second, '"RUN_STARTED"', secondReader);
    const pressed = await post(
      server.url,
      run(client.threadId, 'press', { forwardedProps: { a2uiAction: action('press') } }),
    ).then(eventsOf);
    expect(pressed.at(-1)).toMatchObject({ type: 'RUN_FINISHED', runId: 'press' });
    expect(await readUntil(second, '\u0000', secondReader)).toContain('"runId":"wait-2"}');
    expect(rec.actions.map((event) => event.name)).toEqual(['press']);
  });

  it('runs the runs of one thread one after another', async () => {
    const gate = createDeferred<void>();
    const order: string[] = [];
    const { agent } = recorder({
      async onAction(connection, event) {
        order.push(`start ${event.name}`);
        if (event.name === 'first') await gate.promise;
        connection.send({
          version: 'v0.9',
          updateDataModel: { surfaceId: 'form', path: '/last', value: event.name },
        });
        order.push(`end ${event.name}`);
      },
    });
    const server = await serve({ agent, mode: 'activity' });
    const client = new HttpAgent({ url: server.url });
    await runPeer(client);
    const first = post(
      server.url,
      run(client.threadId, 'a', { forwardedProps: { a2uiAction: action('first') } }),
    );
    await eventually(() => order.length === 1);
    const second = post(
      server.url,
      run(client.threadId, 'b', { forwardedProps: { a2uiAction: action('second') } }),
    );
    gate.resolve();
    const [one, two] = await Promise.all([first.then(eventsOf), second.then(eventsOf)]);
    expect(order).toEqual(['start first', 'end first', 'start second', 'end second']);
    expect(one.at(-1)).toMatchObject({ type: 'RUN_FINISHED', runId: 'a' });
    expect(two.at(-1)).toMatchObject({ type: 'RUN_FINISHED', runId: 'b' });
  });
});

describe('CopilotKit hosts', () => {
  it("names the spec catalogs by CopilotKit's ids with catalogIds: 'copilotkit', in every mode", async () => {
    for (const mode of ['activity', 'state'] as const) {
      const { agent } = recorder();
      const plain = await serve({ agent, mode });
      const copilot = await serve({ agent, mode, catalogIds: 'copilotkit' });
      const spec = await (await post(plain.url, run('t', 'r'))).text();
      const theirs = await (await post(copilot.url, run('t', 'r'))).text();
      expect(spec).toContain(BASIC_CATALOG_ID);
      expect(theirs).not.toContain(BASIC_CATALOG_ID);
      expect(theirs).toContain(COPILOTKIT_CATALOG_IDS[BASIC_CATALOG_ID]);
    }
  });
});
