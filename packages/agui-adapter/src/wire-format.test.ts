/**
 * `docs/wire-formats.md` ("AG-UI") shows the bytes of the runs; this test produces each run
 * against a real server and compares the bodies with the blocks marked `wire-test`.
 */
import { type A2uiAgent, BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { readWireTestBlocks } from '@a2ui-ts/core/testing/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

const agent: A2uiAgent = {
  onConnect(connection) {
    connection.send([
      { version: 'v0.9', createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID } },
      {
        version: 'v0.9',
        updateDataModel: { surfaceId: 'main', path: '/greeting', value: 'Hello' },
      },
    ]);
  },
  async onAction(connection, action) {
    if (action.name === 'zone') {
      const result = await connection.callHostTool({ name: 'getTimeZone', args: {} });
      connection.send({
        version: 'v0.9',
        updateDataModel: { surfaceId: 'main', path: '/zone', value: result.content },
      });
      return;
    }
    connection.send({
      version: 'v0.9',
      updateDataModel: {
        surfaceId: 'main',
        path: '/greeting',
        value: `Hi, ${action.context.name}`,
      },
    });
  },
};

const action = (name: string, context: Record<string, unknown> = {}) => ({
  a2uiAction: {
    version: 'v0.9',
    action: {
      name,
      surfaceId: 'main',
      sourceComponentId: 'send',
      timestamp: '2026-09-22T10:00:00.000Z',
      context,
    },
  },
});

let server: TestServer;
let activity: TestServer;
beforeAll(async () => {
  server = await startTestServer({ agent, mode: 'state' });
  activity = await startTestServer({ agent, mode: 'activity' });
});
afterAll(async () => {
  await server?.close();
  await activity?.close();
});

async function body(url: string, input: Record<string, unknown>): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ messages: [], tools: [], context: [], ...input }),
  });
  return response.text();
}

describe('docs/wire-formats.md, AG-UI', () => {
  const { block } = readWireTestBlocks(
    new URL('../../../docs/wire-formats.md', import.meta.url),
    'AG-UI',
  );

  it('state mode: the first run, then an action', async () => {
    expect(await body(server.url, { threadId: 'thread-1', runId: 'run-1', state: {} })).toBe(
      block('agui-state-open'),
    );
    const state = {
      surfaces: {
        main: {
          catalogId: BASIC_CATALOG_ID,
          sendDataModel: false,
          components: {},
          dataModel: { greeting: 'Hello' },
        },
      },
      // The seq of the last message the client applied, as the first run left it.
      a2uiSeq: 2,
    };
    expect(
      await body(server.url, {
        threadId: 'thread-1',
        runId: 'run-2',
        state,
        forwardedProps: action('greet', { name: 'Ada' }),
      }),
    ).toBe(block('agui-state-action'));
  });

  it('activity mode: the first run, then an action', async () => {
    expect(await body(activity.url, { threadId: 'thread-1', runId: 'run-1', state: {} })).toBe(
      block('agui-activity-open'),
    );
    expect(
      await body(activity.url, {
        threadId: 'thread-1',
        runId: 'run-2',
        state: { a2uiSeq: 2 },
        forwardedProps: action('greet', { name: 'Ada' }),
      }),
    ).toBe(block('agui-activity-action'));
  });

  it('a frontend tool: the call ends the run, the next run brings the result', async () => {
    await body(activity.url, { threadId: 'thread-2', runId: 'run-1' });
    const tools = [
      { name: 'getTimeZone', description: 'The user’s time zone', parameters: { type: 'object' } },
    ];
    const first = await body(activity.url, {
      threadId: 'thread-2',
      runId: 'run-2',
      tools,
      forwardedProps: action('zone'),
    });
    const id = /"toolCallId":"([^"]+)"/.exec(first)![1]!;
    expect(first.replaceAll(id, 'CALL')).toBe(block('agui-tool-call'));
    const messages = [
      {
        id: 'a1',
        role: 'assistant',
        toolCalls: [{ id, type: 'function', function: { name: 'getTimeZone', arguments: '{}' } }],
      },
      { id: 't1', role: 'tool', toolCallId: id, content: 'Europe/Paris' },
    ];
    expect(
      await body(activity.url, { threadId: 'thread-2', runId: 'run-3', tools, messages }),
    ).toBe(block('agui-tool-result'));
  });
});
