/**
 * The server against `@a2a-js/sdk`'s stock client, A2A v1.0 and v0.3: the card, a streamed turn,
 * multi-turn on one task, a blocking send, cancel, and a resubscribe after a cut stream.
 */

import { Role, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  ServiceParameters,
  withA2AExtensions,
} from '@a2a-js/sdk/client';
import { createTcpProxy } from '@a2ui-ts/core/testing/node';
import { afterEach, describe, expect, it } from 'vitest';
import {
  actionMessage,
  dataPart,
  formAgent,
  type JsonFrame,
  textPart,
  update,
  userRequest,
} from '../../test/agents.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import {
  A2UI_EXTENSION_URI,
  A2UI_MIME_TYPE,
  A2UI_MIME_TYPE_ALIAS,
} from '../protocol/a2ui-extension.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const a2uiHeaders = () => ({
  serviceParameters: ServiceParameters.create(withA2AExtensions(A2UI_EXTENSION_URI)),
});

async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** Opens a context with an empty streamed message: its events, and the task it runs in. */
async function openTask(client: Client) {
  const opening = await collect(client.sendMessageStream(userRequest([]), a2uiHeaders()));
  const opened = opening[0]!.payload!.value as { id: string; contextId: string };
  return { opening, task: { taskId: opened.id, contextId: opened.contextId } };
}

/** The A2UI messages (data parts) of the status updates among `events`. */
function a2uiOf(events: readonly StreamResponse[]): Array<{ seq: unknown; data: JsonFrame }> {
  return events.flatMap((event) =>
    event.payload?.$case === 'statusUpdate'
      ? (event.payload.value.status?.message?.parts ?? []).flatMap((part) =>
          part.content?.$case === 'data'
            ? [{ seq: part.metadata?.a2uiSeq, data: part.content.value }]
            : [],
        )
      : [],
  );
}

const statesOf = (events: readonly StreamResponse[]) =>
  events.map((event) =>
    event.payload?.$case === 'task'
      ? `task:${event.payload.value.status?.state}`
      : event.payload?.$case === 'statusUpdate'
        ? `status:${event.payload.value.status?.state}`
        : event.payload?.$case,
  );

describe('the stock @a2a-js/sdk client (A2A v1.0)', () => {
  it('reads the card with the A2UI extension and streams a turn as data parts, ending input-required', async () => {
    const recorder = formAgent();
    server = await startTestServer({ agent: recorder.agent });
    const client = await new ClientFactory().createFromUrl(server.node.url);
    const card = await client.getAgentCard();
    expect(card.capabilities?.streaming).toBe(true);
    // One A2UI extension per version the server speaks; the v0.9 one as before.
    expect(card.capabilities?.extensions).toHaveLength(4);
    expect(card.capabilities?.extensions).toContainEqual(
      expect.objectContaining({
        uri: A2UI_EXTENSION_URI,
        params: {
          supportedCatalogIds: ['https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json'],
          acceptsInlineCatalogs: false,
        },
      }),
    );
    expect(client.protocolVersion).toBe('1.0');

    const events = await collect(
      client.sendMessageStream(userRequest([textPart('hello')]), a2uiHeaders()),
    );
    expect(statesOf(events)).toEqual([
      `task:${TaskState.TASK_STATE_WORKING}`,
      `status:${TaskState.TASK_STATE_WORKING}`,
      `status:${TaskState.TASK_STATE_WORKING}`,
      `status:${TaskState.TASK_STATE_INPUT_REQUIRED}`,
    ]);
    const parts = a2uiOf(events);
    expect(parts.map((part) => part.seq)).toEqual([1, 2, 3]);
    expect(parts[2]!.data).toEqual(update('/heard', 'hello'));
    const first = events[1]!.payload!.value as unknown as {
      status: { message: { parts: Array<Record<string, unknown>> } };
    };
    expect(first.status.message.parts[0]).toMatchObject({
      mediaType: A2UI_MIME_TYPE,
      metadata: { mimeType: A2UI_MIME_TYPE, a2uiSeq: 1 },
    });
    expect(recorder.inputs).toEqual([{ text: 'hello' }]);
  });

  it('continues the task with an action (either MIME spelling), and answers a blocking send with all parts', async () => {
    const recorder = formAgent();
    server = await startTestServer({ agent: recorder.agent });
    const client = await new ClientFactory().createFromUrl(server.node.url);
    const { task } = await openTask(client);
    const metadata = {
      a2uiClientCapabilities: {
        'v0.9': {
          supportedCatalogIds: ['https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json'],
        },
      },
    };

    const second = await collect(
      client.sendMessageStream(
        userRequest(
          [dataPart(actionMessage('first', { n: 1 }), A2UI_MIME_TYPE_ALIAS)],
          task,
          metadata,
        ),
        a2uiHeaders(),
      ),
    );
    expect((second[0]!.payload!.value as { id: string }).id).toBe(task.taskId);
    expect(a2uiOf(second).map((part) => part.data)).toEqual([update('/answer', 'first')]);

    const blocking = await client.sendMessage(
      userRequest([dataPart(actionMessage('second'), A2UI_MIME_TYPE)], task),
      a2uiHeaders(),
    );
    expect('status' in blocking && blocking.status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
    const finalParts = 'status' in blocking ? (blocking.status?.message?.parts ?? []) : [];
    expect(finalParts.map((part) => part.content?.$case === 'data' && part.content.value)).toEqual([
      update('/answer', 'second'),
    ]);
    expect(recorder.actions.map((action) => action.name)).toEqual(['first', 'second']);
    expect(recorder.actions[0]!.metadata?.a2uiClientCapabilities).toEqual(
      metadata.a2uiClientCapabilities,
    );
    expect(recorder.connections).toHaveLength(1);
  });

  it("cancels a task: the agent's onDisconnect('client-closed'), the task canceled, and no more messages on it", async () => {
    const recorder = formAgent();
    server = await startTestServer({ agent: recorder.agent });
    const client = await new ClientFactory().createFromUrl(server.node.url);
    const { task } = await openTask(client);
    const canceled = await client.cancelTask({ tenant: '', id: task.taskId, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(recorder.disconnects).toEqual(['client-closed']);
    expect((await client.getTask({ tenant: '', id: task.taskId })).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
    await expect(client.sendMessage(userRequest([textPart('again')], task))).rejects.toMatchObject({
      name: 'UnsupportedOperationError',
    });
    expect(server.app.stats().sessions).toBe(0);
  });

  it('resubscribes after a cut stream and gets the rest of the turn, nothing lost or repeated', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const recorder = formAgent({
      async onConnect(connection) {
        connection.send(formSurface0());
        await held;
        for (let index = 0; index < 5; index++) connection.send(update(`/late/${index}`, index));
      },
    });
    server = await startTestServer({ agent: recorder.agent });
    const proxy = await createTcpProxy(server.node.port);
    try {
      const client = await new ClientFactory().createFromUrl(server.node.url);
      const viaProxy = await new ClientFactory().createFromAgentCard({
        ...(await client.getAgentCard()),
        supportedInterfaces: [
          { url: `${proxy.url}/`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
        ],
      });
      const seen: StreamResponse[] = [];
      await expect(
        (async () => {
          for await (const event of viaProxy.sendMessageStream(userRequest([]), a2uiHeaders())) {
            seen.push(event);
            if (a2uiOf(seen).length === 1) proxy.drop();
          }
        })(),
      ).rejects.toThrow();
      const taskId = (seen[0]!.payload!.value as { id: string }).id;
      release();
      // As a stock client reads a resubscribe: the task as stored, then updates until the task
      // waits for input again (the stream stays open after it, for pushes).
      const resumed: StreamResponse[] = [];
      for await (const event of client.resubscribeTask({ tenant: '', id: taskId })) {
        resumed.push(event);
        const state =
          event.payload?.$case === 'statusUpdate' ? event.payload.value.status?.state : undefined;
        if (state !== undefined && state !== TaskState.TASK_STATE_WORKING) break;
      }
      const stored = resumed[0]!.payload!;
      expect(stored.$case).toBe('task');
      const history = (stored.value as Task).history.flatMap((message) =>
        message.role === Role.ROLE_AGENT
          ? message.parts.map((part) => part.metadata?.a2uiSeq as number)
          : [],
      );
      const live = a2uiOf(resumed).map((part) => part.seq as number);
      // What the stored task holds and what follows it do not overlap, and together with what
      // came before the cut they are the whole turn.
      expect(live.filter((seq) => history.includes(seq))).toEqual([]);
      expect(
        [...new Set([...a2uiOf(seen).map((part) => part.seq), ...history, ...live])].sort(),
      ).toEqual([1, 2, 3, 4, 5, 6]);
      expect(statesOf(resumed).at(-1)).toBe(`status:${TaskState.TASK_STATE_INPUT_REQUIRED}`);
      expect((await client.getTask({ tenant: '', id: taskId })).status?.state).toBe(
        TaskState.TASK_STATE_INPUT_REQUIRED,
      );
    } finally {
      await proxy.close();
    }
  });
});

const formSurface0 = () => ({
  version: 'v0.9' as const,
  createSurface: {
    surfaceId: 'form',
    catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
  },
});

describe('the stock @a2a-js/sdk client through its v0.3 compat layer', () => {
  async function legacyClient(url: string): Promise<Client> {
    const compat = { legacyCompat: { enabled: true } };
    return new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory(compat)],
        cardResolver: new DefaultAgentCardResolver(compat),
      }),
    ).createFromUrl(url);
  }

  it('talks v0.3 to a v0.3-only agent: message/stream, tasks/resubscribe, tasks/cancel', async () => {
    const recorder = formAgent();
    server = await startTestServer({ agent: recorder.agent, protocolVersions: ['0.3'] });
    const client = await legacyClient(server.node.url);
    expect(client.protocolVersion).toBe('0.3');
    const { opening, task } = await openTask(client);
    expect(a2uiOf(opening).map((part) => part.seq)).toEqual([1, 2]);
    const turn = await collect(
      client.sendMessageStream(
        userRequest([dataPart(actionMessage('go'), A2UI_MIME_TYPE)], task),
        a2uiHeaders(),
      ),
    );
    expect(a2uiOf(turn).map((part) => part.data)).toEqual([update('/answer', 'go')]);
    expect(statesOf(turn).at(-1)).toBe(`status:${TaskState.TASK_STATE_INPUT_REQUIRED}`);
    const canceled = await client.cancelTask({ tenant: '', id: task.taskId, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(recorder.actions.map((action) => action.name)).toEqual(['go']);
    expect(recorder.disconnects).toEqual(['client-closed']);
  });
});
