/**
 * The exact A2A wire of the server, v1.0 and v0.3 (raw HTTP, no SDK client): the card in both
 * shapes, streamed turns, `Last-Event-ID` resumes, and a refusal with the right code for every
 * bad input — none of which reaches the agent or disturbs another context.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  actionMessage,
  formAgent,
  type JsonFrame,
  postRpc,
  readSse,
  update,
  v1SendBody,
} from '../../test/agents.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { A2UI_EXTENSION_URI, A2UI_MIME_TYPE } from '../protocol/a2ui-extension.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const V1 = { 'A2A-Version': '1.0' };
const BASIC = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';

const v03Send = (method: string, message: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 'req-1',
  method,
  params: {
    message: {
      kind: 'message',
      messageId: crypto.randomUUID(),
      role: 'user',
      parts: [],
      ...message,
    },
  },
});

describe('the agent card', () => {
  it('is v1.0 for A2A-Version 1.0 and v0.3 (with the v1.0 interfaces) otherwise, at both well-known paths', async () => {
    server = await startTestServer({ agent: formAgent().agent, card: { name: 'Tables' } });
    const base = server.node.url;
    const v1 = await (await fetch(`${base}/.well-known/agent-card.json`, { headers: V1 })).json();
    expect(v1).toMatchObject({
      name: 'Tables',
      supportedInterfaces: [
        { url: `${base}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${base}/`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      capabilities: { streaming: true },
    });
    expect(v1.capabilities.extensions.map((extension: { uri: string }) => extension.uri)).toEqual(
      ['v1.0', 'v0.9.1', 'v0.9', 'v0.8'].map((v) => `https://a2ui.org/a2a-extension/a2ui/${v}`),
    );
    const v03Response = await fetch(`${base}/.well-known/agent.json`);
    expect(v03Response.headers.get('vary')).toBe('A2A-Version');
    const v03 = await v03Response.json();
    expect(v03).toMatchObject({
      name: 'Tables',
      url: `${base}/`,
      protocolVersion: '0.3',
      preferredTransport: 'JSONRPC',
      capabilities: { streaming: true },
    });
    expect(v03.capabilities.extensions).toContainEqual({
      uri: A2UI_EXTENSION_URI,
      description: 'Streams A2UI v0.9 messages as data parts and accepts A2UI actions.',
      required: false,
      params: { supportedCatalogIds: [BASIC], acceptsInlineCatalogs: false },
    });
    expect((await fetch(`${base}/.well-known/agent-card.json`, { method: 'DELETE' })).status).toBe(
      405,
    );
  });

  it('gives the URL of the mount it is served under', async () => {
    const { Hono } = await import('hono');
    const { createA2aServer } = await import('./create-a2a-server.js');
    const { serveA2a } = await import('../node.js');
    const a2a = createA2aServer({ agent: formAgent().agent });
    const node = await serveA2a(new Hono().route('/agents/tables', a2a));
    try {
      const card = await (
        await fetch(`${node.url}/agents/tables/.well-known/agent-card.json`, { headers: V1 })
      ).json();
      expect(card.supportedInterfaces[0].url).toBe(`${node.url}/agents/tables`);
      const answer = await postRpc(
        card.supportedInterfaces[0].url,
        v1SendBody('SendMessage', {}),
        V1,
      );
      expect((await answer.json()).result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    } finally {
      await node.close();
      await a2a.close();
    }
  });
});

describe('streamed turns on the wire', () => {
  it('v1.0: PascalCase methods, TASK_STATE_* and ROLE_*, parts with mediaType and metadata, the extension echoed', async () => {
    server = await startTestServer({ agent: formAgent().agent });
    const response = await postRpc(
      `${server.node.url}/`,
      v1SendBody('SendStreamingMessage', { parts: [{ text: 'hi' }] }),
      {
        ...V1,
        'A2A-Extensions': A2UI_EXTENSION_URI,
      },
    );
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('a2a-extensions')).toBe(A2UI_EXTENSION_URI);
    const frames = await readSse(response);
    expect(frames.every((frame) => frame.jsonrpc === '2.0' && frame.id === 1)).toBe(true);
    expect(frames[0]!.result.task.status.state).toBe('TASK_STATE_WORKING');
    const update0 = frames[1]!.result.statusUpdate;
    expect(update0.status.state).toBe('TASK_STATE_WORKING');
    expect(update0.status.message.role).toBe('ROLE_AGENT');
    expect(update0.status.message.parts[0]).toEqual({
      data: { version: 'v0.9', createSurface: { surfaceId: 'form', catalogId: BASIC } },
      mediaType: A2UI_MIME_TYPE,
      metadata: { mimeType: A2UI_MIME_TYPE, a2uiSeq: 1 },
    });
    expect(frames.at(-1)!.result.statusUpdate.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('v0.3: message/stream without A2A-Version, kind "data" parts, status-update frames, final only when terminal', async () => {
    server = await startTestServer({ agent: formAgent().agent });
    const response = await postRpc(
      `${server.node.url}/`,
      v03Send('message/stream', { parts: [{ kind: 'text', text: 'hi' }] }),
      { 'X-A2A-Extensions': A2UI_EXTENSION_URI },
    );
    expect(response.headers.get('x-a2a-extensions')).toBe(A2UI_EXTENSION_URI);
    const frames = await readSse(response);
    expect(frames[0]!.result).toMatchObject({ kind: 'task', status: { state: 'working' } });
    const working = frames[1]!.result;
    expect(working).toMatchObject({
      kind: 'status-update',
      final: false,
      status: { state: 'working' },
    });
    expect(working.status.message).toMatchObject({ kind: 'message', role: 'agent' });
    expect(working.status.message.parts[0]).toEqual({
      kind: 'data',
      data: { version: 'v0.9', createSurface: { surfaceId: 'form', catalogId: BASIC } },
      metadata: { mimeType: A2UI_MIME_TYPE, a2uiSeq: 1 },
    });
    expect(frames.at(-1)!.result).toMatchObject({
      kind: 'status-update',
      final: false,
      status: { state: 'input-required' },
    });
  });

  it('v0.3: message/send answers with the task, its status message holding the turn', async () => {
    server = await startTestServer({ agent: formAgent().agent });
    const answer = await (await postRpc(`${server.node.url}/`, v03Send('message/send', {}))).json();
    expect(answer.result).toMatchObject({ kind: 'task', status: { state: 'input-required' } });
    expect(answer.result.status.message.parts.map((part: { kind: string }) => part.kind)).toEqual([
      'data',
      'data',
    ]);
  });

  it('resumes from Last-Event-ID: SubscribeToTask sends the stored task, then exactly what the client missed', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const recorder = formAgent({
      async onConnect(connection) {
        connection.send(update('/n', 0));
        await held;
        for (let index = 1; index <= 4; index++) connection.send(update('/n', index));
      },
    });
    server = await startTestServer({ agent: recorder.agent });
    const first = await postRpc(`${server.node.url}/`, v1SendBody('SendStreamingMessage', {}), V1);
    const reader = first.body!.getReader();
    let text = '';
    while (!text.includes('a2uiSeq')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const taskId = JSON.parse(text.split('\n')[0]!.slice('data: '.length)).result.task.id as string;
    const resumed = postRpc(
      `${server.node.url}/`,
      { jsonrpc: '2.0', id: 2, method: 'SubscribeToTask', params: { id: taskId } },
      { ...V1, 'Last-Event-ID': '1' },
    );
    const response = await resumed;
    release();
    const frames = await readFramesUntil(
      response,
      (frame) => frame.result?.statusUpdate?.status?.state === 'TASK_STATE_INPUT_REQUIRED',
    );
    expect(frames[0]!.result.task.id).toBe(taskId);
    const seqs = frames.flatMap((frame) =>
      (frame.result?.statusUpdate?.status?.message?.parts ?? []).map(
        (part: { metadata: { a2uiSeq: number } }) => part.metadata.a2uiSeq,
      ),
    );
    expect(seqs).toEqual([2, 3, 4, 5]);
  });
});

describe('idle streams', () => {
  it('ping with a `: ping` comment while nothing happens', async () => {
    server = await startTestServer({ agent: formAgent().agent, keepAliveIntervalMs: 10 });
    const opened = await (
      await postRpc(`${server.node.url}/`, v1SendBody('SendMessage', {}), V1)
    ).json();
    const response = await postRpc(
      `${server.node.url}/`,
      { jsonrpc: '2.0', id: 5, method: 'SubscribeToTask', params: { id: opened.result.task.id } },
      { ...V1, 'Last-Event-ID': '2' },
    );
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('\n: ping\n'))
      text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(text.startsWith('data: ')).toBe(true);
  });
});

/** Reads SSE frames until `done(frame)`; cancels the rest. */
async function readFramesUntil(
  response: Response,
  done: (frame: JsonFrame) => boolean,
): Promise<Array<JsonFrame>> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const frames: Array<JsonFrame> = [];
  let buffer = '';
  while (true) {
    const { value, done: ended } = await reader.read();
    if (ended) return frames;
    buffer += decoder.decode(value, { stream: true });
    let index = buffer.indexOf('\n\n');
    while (index >= 0) {
      const block = buffer.slice(0, index);
      buffer = buffer.slice(index + 2);
      const line = block.split('\n').find((entry) => entry.startsWith('data: '));
      if (line) {
        const frame = JSON.parse(line.slice('data: '.length));
        frames.push(frame);
        if (done(frame)) {
          await reader.cancel();
          return frames;
        }
      }
      index = buffer.indexOf('\n\n');
    }
  }
}

describe('bad input gets an A2A error, reaches no agent and disturbs no other context', () => {
  async function openContext(target: TestServer) {
    const answer = await (
      await postRpc(`${target.node.url}/`, v1SendBody('SendMessage', {}), V1)
    ).json();
    return {
      taskId: answer.result.task.id as string,
      contextId: answer.result.task.contextId as string,
    };
  }

  const cases: Array<{
    name: string;
    body: (ids: { taskId: string; contextId: string }) => unknown;
    headers?: Record<string, string>;
    /** HTTP status of the answer. @default 200 */
    status?: number;
    code: number;
    a2uiCode?: string;
    path?: string;
  }> = [
    // A body that is not JSON is refused as by every HTTP binding (core's JSON_REQUEST_FAILURES).
    { name: 'not JSON', body: () => '{"jsonrpc":', status: 400, code: -32700 },
    {
      name: 'an unknown method',
      body: () => ({ jsonrpc: '2.0', id: 1, method: 'DoThings', params: {} }),
      code: -32601,
    },
    {
      name: 'a malformed action',
      body: () =>
        v1SendBody('SendMessage', {
          parts: [{ data: { version: 'v0.9', action: { name: 5 } }, mediaType: A2UI_MIME_TYPE }],
        }),
      code: -32602,
      a2uiCode: 'VALIDATION_FAILED',
      path: '/message/parts/0/data/action',
    },
    {
      name: 'a server message sent by a client',
      body: () =>
        v1SendBody('SendMessage', {
          parts: [{ data: update('/x', 1), metadata: { mimeType: A2UI_MIME_TYPE } }],
        }),
      code: -32602,
      a2uiCode: 'VALIDATION_FAILED',
    },
    {
      name: 'a bad message in an array payload',
      body: () =>
        v1SendBody('SendMessage', {
          parts: [
            {
              data: [actionMessage('ok'), { version: 'v0.9', action: {} }],
              mediaType: A2UI_MIME_TYPE,
            },
          ],
        }),
      code: -32602,
      path: '/message/parts/0/data/1/action',
    },
    {
      name: 'a file part',
      body: () =>
        v1SendBody('SendMessage', {
          parts: [{ url: 'https://example.com/a.png', mediaType: 'image/png' }],
        }),
      code: -32005,
    },
    {
      name: 'data of another media type',
      body: () =>
        v1SendBody('SendMessage', {
          parts: [{ data: { a: 1 }, mediaType: 'application/x-other' }],
        }),
      code: -32005,
    },
    {
      name: 'malformed capabilities in the metadata',
      body: () =>
        v1SendBody('SendMessage', {
          metadata: { a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: 'basic' } } },
        }),
      code: -32602,
      path: '/message/metadata/a2uiClientCapabilities/v0.9/supportedCatalogIds',
    },
    {
      name: 'an unknown task',
      body: () => v1SendBody('SendMessage', { taskId: 'no-such-task' }),
      code: -32001,
    },
    {
      name: 'a context that is not the task’s',
      body: (ids) => v1SendBody('SendMessage', { taskId: ids.taskId, contextId: 'another' }),
      code: -32602,
    },
    {
      name: 'a non-numeric Last-Event-ID',
      body: (ids) => v1SendBody('SendMessage', { contextId: ids.contextId }),
      headers: { 'Last-Event-ID': 'seven' },
      code: -32602,
      path: '/headers/Last-Event-ID',
    },
    {
      name: 'a context id that is too long',
      body: () => v1SendBody('SendMessage', { contextId: 'c'.repeat(201) }),
      code: -32602,
    },
    {
      name: 'a subscription to an unknown task',
      body: () => ({ jsonrpc: '2.0', id: 1, method: 'SubscribeToTask', params: { id: 'nope' } }),
      code: -32001,
    },
    {
      name: 'a cancel of an unknown task',
      body: () => ({ jsonrpc: '2.0', id: 1, method: 'CancelTask', params: { id: 'nope' } }),
      code: -32001,
    },
    ...(
      [
        [
          'a data part',
          (deep: string) => `"parts":[{"data":{"x":${deep}}}]`,
          '/message/parts/0/data/x/0',
        ],
        [
          'an A2UI part',
          (deep: string) => `"parts":[{"data":${deep},"mediaType":"${A2UI_MIME_TYPE}"}]`,
          '/message/parts/0/data/0',
        ],
        [
          'the message metadata',
          (deep: string) => `"parts":[],"metadata":{"x":${deep}}`,
          '/message/metadata/x/0',
        ],
        [
          'a part’s metadata',
          (deep: string) => `"parts":[{"text":"hi","metadata":{"x":${deep}}}]`,
          '/message/parts/0/metadata/x/0',
        ],
        [
          'the extensions',
          (deep: string) => `"parts":[],"extensions":${deep}`,
          '/message/extensions/0',
        ],
      ] as const
    ).map(([where, message, path]) => ({
      name: `${where} nested 100,000 levels deep`,
      body: () => {
        const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
        return `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"${crypto.randomUUID()}","role":"ROLE_USER",${message(deep)}}}}`;
      },
      code: -32602,
      a2uiCode: 'VALIDATION_FAILED',
      path,
    })),
    {
      name: 'an id nested 100,000 levels deep',
      body: () =>
        `{"jsonrpc":"2.0","id":${'['.repeat(100_000)}${']'.repeat(100_000)},"method":"SendMessage","params":{}}`,
      code: -32602,
      a2uiCode: 'VALIDATION_FAILED',
      path: '/id/0',
    },
    {
      name: 'an unsupported version',
      body: () => v1SendBody('SendMessage', {}),
      headers: { 'A2A-Version': '2.0' },
      code: -32009,
    },
  ];

  for (const entry of cases) {
    it(`refuses ${entry.name}`, async () => {
      const recorder = formAgent();
      server = await startTestServer({ agent: recorder.agent });
      const other = await openContext(server);
      const target = await openContext(server);
      const response = await postRpc(`${server.node.url}/`, entry.body(target), {
        ...V1,
        ...entry.headers,
      });
      expect(response.status).toBe(entry.status ?? 200);
      const answer = await response.json();
      expect(answer.error.code).toBe(entry.code);
      if (entry.a2uiCode || entry.path) {
        const info = (answer.error.data as Array<{ metadata?: Record<string, string> }>).find(
          (item) => item.metadata?.a2uiCode,
        );
        if (entry.a2uiCode) expect(info?.metadata?.a2uiCode).toBe(entry.a2uiCode);
        if (entry.path) expect(info?.metadata?.path?.startsWith(entry.path)).toBe(true);
      }
      expect(recorder.actions).toEqual([]);
      expect(recorder.inputs).toEqual([]);
      // The other context is undisturbed: its next action is answered.
      const next = await (
        await postRpc(
          `${server.node.url}/`,
          v1SendBody('SendMessage', {
            ...other,
            parts: [{ data: actionMessage('still'), mediaType: A2UI_MIME_TYPE }],
          }),
          V1,
        )
      ).json();
      expect(next.result.task.status.message.parts[0].data).toEqual(update('/answer', 'still'));
    });
  }

  it('refuses a wrong or missing content type (415), an oversized body (413) and, on v0.3, names the A2UI code in data', async () => {
    server = await startTestServer({ agent: formAgent().agent, maxRequestBytes: 2_000 });
    const url = `${server.node.url}/`;
    const wrongType = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(wrongType.status).toBe(415);
    expect((await wrongType.json()).error.code).toBe(-32005);
    // No Content-Type at all (a cross-site `fetch` of a Blob needs no preflight): refused alike.
    const untyped = await fetch(url, {
      method: 'POST',
      headers: V1,
      body: new Blob([JSON.stringify(v1SendBody('SendMessage', { parts: [{ text: 'hi' }] }))]),
    });
    expect(untyped.status).toBe(415);
    expect((await untyped.json()).error.code).toBe(-32005);
    const large = await postRpc(
      url,
      v1SendBody('SendMessage', { parts: [{ text: 'x'.repeat(5_000) }] }),
      V1,
    );
    expect(large.status).toBe(413);
    expect((await large.json()).error.code).toBe(-32602);
    const legacy = await (
      await postRpc(
        url,
        v03Send('message/send', {
          parts: [
            {
              kind: 'data',
              data: { version: 'v0.9', action: {} },
              metadata: { mimeType: A2UI_MIME_TYPE },
            },
          ],
        }),
      )
    ).json();
    expect(legacy.error).toMatchObject({ code: -32602, data: { a2uiCode: 'VALIDATION_FAILED' } });
    expect(legacy.error.data.path).toMatch(/^\/message\/parts\/0\/data\/action/);
    expect((await fetch(url)).status).toBe(405);
  });

  it('refuses, with -32008, a client that neither activates A2UI nor sends capabilities when the server requires it', async () => {
    server = await startTestServer({ agent: formAgent().agent, requireA2uiClient: true });
    const url = `${server.node.url}/`;
    const plain = await (
      await postRpc(url, v1SendBody('SendMessage', { parts: [{ text: 'hi' }] }), V1)
    ).json();
    expect(plain.error.code).toBe(-32008);
    const activated = await (
      await postRpc(
        url,
        v1SendBody('SendMessage', { parts: [{ text: 'hi' }], extensions: [A2UI_EXTENSION_URI] }),
        V1,
      )
    ).json();
    expect(activated.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const withCapabilities = await (
      await postRpc(
        url,
        v1SendBody('SendMessage', {
          metadata: { a2uiClientCapabilities: { supportedCatalogIds: [BASIC] } },
        }),
        V1,
      )
    ).json();
    expect(withCapabilities.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('answers 401 without a principal, and 503 with Retry-After when the session cap is reached', async () => {
    server = await startTestServer({
      agent: formAgent().agent,
      authenticate: (request) => request.headers.get('authorization') ?? undefined,
      maxSessions: 1,
      reconnectGraceMs: 60_000,
    });
    const url = `${server.node.url}/`;
    const anonymous = await postRpc(url, v1SendBody('SendMessage', {}), V1);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.data[0].metadata.a2uiCode).toBe('UNAUTHORIZED');
    const first = await postRpc(url, v1SendBody('SendMessage', {}), {
      ...V1,
      authorization: 'ada',
    });
    expect(first.status).toBe(200);
    // The first session has no link: it is evicted to make room (the cap never refuses then).
    const second = await postRpc(url, v1SendBody('SendMessage', {}), {
      ...V1,
      authorization: 'ada',
    });
    expect(second.status).toBe(200);
    // A session with an open stream is not evicted: the next one is refused.
    const stream = await postRpc(
      url,
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'SubscribeToTask',
        params: { id: (await second.json()).result.task.id },
      },
      { ...V1, authorization: 'ada' },
    );
    const refused = await postRpc(url, v1SendBody('SendMessage', {}), {
      ...V1,
      authorization: 'ada',
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    // The refused session left nothing behind.
    expect(server.app.stats()).toMatchObject({ sessions: 1, a2aSessions: 1 });
    const body = await refused.json();
    expect(body.error.code).toBe(-32603);
    expect(body.error.data[0]).toMatchObject({
      domain: 'a2ui.org',
      metadata: { a2uiCode: 'LIMIT_EXCEEDED', retryAfterMs: '5000' },
    });
    await stream.body?.cancel();
  });
});
