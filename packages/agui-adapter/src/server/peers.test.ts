/**
 * Every stream the server emits, read by the real peers: `@ag-ui/client` 1.0.0 and 0.0.58
 * `HttpAgent` (zod validation and the event verifier on every event), in every mode, over every
 * official example stream; `@ag-ui/a2ui-middleware` in front of the activity and tool-result
 * modes; the protobuf encoding.
 */
import {
  type A2uiAgent,
  type ActionEvent,
  createDefaultCatalogs,
  MessageProcessor,
  type ServerMessage,
  snapshotState,
} from '@a2ui-ts/core';
import { EXAMPLE_STREAMS } from '@a2ui-ts/core/testing';
import { A2UIMiddleware } from '@ag-ui/a2ui-middleware';
import { HttpAgent, runHttpRequest, transformHttpEventStream, verifyEvents } from '@ag-ui/client';
import { EventEncoder } from '@ag-ui/encoder';
import { describe, expect, it } from 'vitest';
import { useTestServers } from '../../test/harness.js';
import { PEERS, runPeer, typesOf } from '../../test/peers.js';
import { A2UI_OPERATIONS_KEY, PROTOBUF_MEDIA_TYPE } from '../protocol/constants.js';

const ALL = EXAMPLE_STREAMS.flatMap((stream) => stream.messages);

const serve = useTestServers();

const streaming = (messages: readonly ServerMessage[]): A2uiAgent => ({
  onConnect(connection) {
    for (const message of messages) connection.send(structuredClone(message));
  },
});

/** Core's snapshot as JSON, after each message that changed it. */
function coreStates(messages: readonly ServerMessage[]): unknown[] {
  const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
  const states: unknown[] = [];
  let last = '';
  for (const message of messages) {
    processor.process(structuredClone(message));
    const now = JSON.stringify(snapshotState(processor).surfaces);
    if (now !== last) states.push(JSON.parse(now));
    last = now;
  }
  return states;
}

const coreState = (messages: readonly unknown[]) => {
  const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
  processor.process(structuredClone(messages));
  return JSON.parse(JSON.stringify(snapshotState(processor).surfaces));
};

/** The A2UI operations of the run's `a2ui-surface` activity messages, in order. */
function activityOperations(messages: readonly unknown[]): unknown[] {
  return messages.flatMap((message) => {
    const record = message as {
      role?: string;
      activityType?: string;
      content?: Record<string, unknown>;
    };
    if (record.role !== 'activity' || record.activityType !== 'a2ui-surface') return [];
    return (record.content?.[A2UI_OPERATIONS_KEY] as unknown[]) ?? [];
  });
}

const clean = (run: Awaited<ReturnType<typeof runPeer>>) => {
  expect(run.failure).toBeUndefined();
  expect(run.warnings.filter((warning) => /Failed to apply|\[ag-ui\]/.test(warning))).toEqual([]);
  const types = typesOf(run);
  expect(types[0]).toBe('RUN_STARTED');
  expect(types.filter((type) => type === 'RUN_FINISHED' || type === 'RUN_ERROR')).toEqual([
    'RUN_FINISHED',
  ]);
  expect(types.at(-1)).toBe('RUN_FINISHED');
};

describe.each(PEERS)('@ag-ui/client $version HttpAgent', ({ HttpAgent: Peer }) => {
  it('state mode: after every event state.surfaces equals core’s snapshot of the same stream, other keys kept', async () => {
    const server = await serve({ agent: streaming(ALL), mode: 'state' });
    const agent = new Peer({ url: server.url, initialState: { app: { theme: 'dark' } } });
    const run = await runPeer(agent);
    clean(run);
    expect(run.states.map((state) => (state as { surfaces: unknown }).surfaces)).toEqual(
      coreStates(ALL),
    );
    expect(agent.state).toMatchObject({ app: { theme: 'dark' } });
    expect(typesOf(run).filter((type) => type === 'STATE_SNAPSHOT')).toEqual([]);
  });

  it('state mode: a client that lost its state gets one snapshot merged with its other keys, then deltas again', async () => {
    let connection: Parameters<NonNullable<A2uiAgent['onConnect']>>[0] | undefined;
    const server = await serve({
      mode: 'state',
      agent: {
        onConnect(opened) {
          connection = opened;
          for (const message of EXAMPLE_STREAMS[0]!.messages) opened.send(structuredClone(message));
        },
      },
    });
    const agent = new Peer({ url: server.url });
    clean(await runPeer(agent));
    const expected = coreState(EXAMPLE_STREAMS[0]!.messages);
    agent.setState({ mine: 1 });
    const after = await runPeer(agent);
    clean(after);
    expect(typesOf(after)).toEqual(['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_FINISHED']);
    expect(agent.state).toEqual({ mine: 1, surfaces: expected, a2uiSeq: expect.any(Number) });
    const surfaceId = Object.keys(expected)[0]!;
    connection!.send({
      version: 'v0.9',
      updateDataModel: { surfaceId, path: '/pushed', value: true },
    });
    const next = await runPeer(agent);
    clean(next);
    expect(typesOf(next)).toEqual(['RUN_STARTED', 'STATE_DELTA', 'RUN_FINISHED']);
    expect(
      (agent.state as { surfaces: Record<string, { dataModel: { pushed?: boolean } }> }).surfaces[
        surfaceId
      ]!.dataModel.pushed,
    ).toBe(true);
  });

  it('activity mode: one activity message per surface whose operations rebuild the stream', async () => {
    const server = await serve({ agent: streaming(ALL), mode: 'activity' });
    const agent = new Peer({ url: server.url });
    const run = await runPeer(agent);
    clean(run);
    const activities = agent.messages.filter((message) => message.role === 'activity');
    const surfaceIds = Object.keys(coreState(ALL));
    expect(activities.map((message) => message.id).sort()).toEqual(
      surfaceIds.map((id) => `a2ui-surface-${id}`).sort(),
    );
    expect(coreState(activityOperations(agent.messages))).toEqual(coreState(ALL));
    expect(typesOf(run)).toContain('ACTIVITY_DELTA');
  });

  it('tool-result mode: a tool call and its result per surface, whose operations rebuild the stream', async () => {
    const server = await serve({ agent: streaming(ALL), mode: 'tool-result' });
    const agent = new Peer({ url: server.url });
    const run = await runPeer(agent);
    clean(run);
    const results = agent.messages.filter((message) => message.role === 'tool');
    expect(results).toHaveLength(Object.keys(coreState(ALL)).length);
    const operations = results.flatMap(
      (message) => JSON.parse(message.content as string)[A2UI_OPERATIONS_KEY],
    );
    expect(coreState(operations)).toEqual(coreState(ALL));
  });

  it('frontend tools: the call ends the run, the next run brings the result and the agent goes on', async () => {
    const server = await serve({
      mode: 'state',
      agent: {
        onConnect: (connection) =>
          connection.send(EXAMPLE_STREAMS[0]!.messages.slice(0, 1).map((m) => structuredClone(m))),
        async onInput(connection, input) {
          if (input.text !== 'what time zone am I in?') return;
          const surfaceId = Object.keys(coreState(EXAMPLE_STREAMS[0]!.messages.slice(0, 1)))[0]!;
          const result = await connection.callHostTool({
            name: 'getTimeZone',
            args: { format: 'iana' },
          });
          connection.send({
            version: 'v0.9',
            updateDataModel: { surfaceId, path: '/zone', value: result.content },
          });
        },
      },
    });
    const agent = new Peer({ url: server.url });
    const tool = {
      name: 'getTimeZone',
      description: 'The user’s time zone',
      parameters: { type: 'object' },
    };
    agent.addMessage({ id: 'u1', role: 'user', content: 'what time zone am I in?' });
    const first = await runPeer(agent, { tools: [tool] });
    clean(first);
    expect(typesOf(first).slice(-4)).toEqual([
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'RUN_FINISHED',
    ]);
    const call = agent.messages.flatMap((message) =>
      message.role === 'assistant' ? (message.toolCalls ?? []) : [],
    )[0]!;
    expect(call.function).toEqual({
      name: 'getTimeZone',
      arguments: JSON.stringify({ format: 'iana' }),
    });
    expect(server.app.stats().pendingToolCalls).toBe(1);
    agent.addMessage({ id: 't1', role: 'tool', toolCallId: call.id, content: 'Europe/Paris' });
    const second = await runPeer(agent, { tools: [tool] });
    clean(second);
    const surfaces = (
      agent.state as { surfaces: Record<string, { dataModel: Record<string, unknown> }> }
    ).surfaces;
    expect(Object.values(surfaces)[0]!.dataModel.zone).toBe('Europe/Paris');
    expect(server.app.stats().pendingToolCalls).toBe(0);
    // The answered call stays in the history: a later run does not deliver it again.
    clean(await runPeer(agent, { tools: [tool] }));
    expect(server.agentErrors).toEqual([]);
  });

  it('errors: an agent that throws gets one RUN_ERROR and nothing after; the thread goes on', async () => {
    let fail = true;
    const server = await serve({
      mode: 'activity',
      agent: {
        onConnect: (connection) => connection.send(structuredClone(EXAMPLE_STREAMS[0]!.messages)),
        onInput() {
          if (fail) throw new Error('boom');
        },
      },
    });
    const agent = new Peer({ url: server.url });
    const run = await runPeer(agent);
    expect(run.failure).toBeUndefined();
    expect(typesOf(run).at(-1)).toBe('RUN_ERROR');
    expect(typesOf(run)).not.toContain('RUN_FINISHED');
    expect(run.events.at(-1)).toMatchObject({ code: 'INTERNAL_ERROR' });
    fail = false;
    agent.addMessage({ id: 'u2', role: 'user', content: 'again' });
    clean(await runPeer(agent));
  });
});

describe('@ag-ui/a2ui-middleware in front of the server', () => {
  it('paints the tool-result mode as activity messages', async () => {
    const server = await serve({ agent: streaming(ALL), mode: 'tool-result' });
    const agent = new HttpAgent({ url: server.url }).use(new A2UIMiddleware());
    const run = await runPeer(agent);
    clean(run);
    expect(typesOf(run)).toContain('ACTIVITY_SNAPSHOT');
    expect(coreState(activityOperations(agent.messages))).toEqual(coreState(ALL));
  });

  it('passes the activity mode through, and its user action reaches the agent once', async () => {
    const actions: ActionEvent[] = [];
    const messages = EXAMPLE_STREAMS.find((stream) =>
      stream.file.includes('interactive_button'),
    )!.messages;
    const surfaceId = Object.keys(coreState(messages))[0]!;
    const server = await serve({
      mode: 'activity',
      agent: {
        ...streaming(messages),
        onAction: (_connection, action) => void actions.push(action),
      },
    });
    const agent = new HttpAgent({ url: server.url }).use(new A2UIMiddleware());
    clean(await runPeer(agent));
    expect(coreState(activityOperations(agent.messages))).toEqual(coreState(messages));
    const userAction = {
      name: 'press',
      surfaceId,
      sourceComponentId: 'root',
      timestamp: '2026-09-22T10:00:00.000Z',
      context: { a: 1 },
    };
    // CopilotKit's spelling; the middleware also appends its `log_a2ui_event` pair to the messages.
    clean(await runPeer(agent, { forwardedProps: { a2uiAction: { userAction } } }));
    expect(actions).toEqual([userAction]);
  });
});

describe('protobuf', () => {
  it.each(['state', 'activity', 'tool-result'] as const)(
    '%s mode round-trips as length-prefixed protobuf when Accept names it',
    async (mode) => {
      const server = await serve({ agent: streaming(EXAMPLE_STREAMS[0]!.messages), mode });
      const events: Array<{ type: string }> = [];
      let contentType: string | null = null;
      await new Promise<void>((resolve, reject) => {
        transformHttpEventStream(
          runHttpRequest(async () => {
            const response = await fetch(server.url, {
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: PROTOBUF_MEDIA_TYPE },
              body: JSON.stringify({ threadId: 't', runId: 'r', messages: [], state: {} }),
            });
            contentType = response.headers.get('content-type');
            return response;
          }),
        )
          .pipe(verifyEvents())
          .subscribe({
            next: (event) => void events.push(event),
            error: reject,
            complete: resolve,
          });
      });
      expect(contentType).toBe(PROTOBUF_MEDIA_TYPE);
      expect(events[0]!.type).toBe('RUN_STARTED');
      expect(events.at(-1)!.type).toBe('RUN_FINISHED');
      expect(events.length).toBeGreaterThan(2);
    },
  );

  it.each(['state', 'activity', 'tool-result'] as const)(
    '%s mode: every SSE frame is byte for byte what @ag-ui/encoder writes for its event',
    async (mode) => {
      const server = await serve({ agent: streaming(ALL), mode });
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ threadId: 't', runId: 'r', messages: [], state: {} }),
      });
      const frames = (await response.text()).split(/(?<=\n\n)/);
      expect(frames.length).toBeGreaterThan(ALL.length / 2);
      const encoder = new EventEncoder();
      for (const frame of frames) expect(encoder.encodeSSE(JSON.parse(frame.slice(6)))).toBe(frame);
    },
  );

  it('answers SSE to Accept: */* (the encoder alone would answer protobuf)', async () => {
    const server = await serve({ agent: streaming([]), mode: 'state' });
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: '*/*' },
      body: JSON.stringify({ threadId: 't', runId: 'r' }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toContain('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(await response.text()).toMatch(
      /^data: \{"type":"RUN_STARTED","threadId":"t","runId":"r"\}\n\n/,
    );
  });
});
