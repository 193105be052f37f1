/**
 * The benchmark's server process: this transport (an `A2uiAgent` behind `createA2aServer`) under
 * `/a2ui`, and the baseline — the same `@a2a-js/sdk` server (its `DefaultRequestHandler`, task
 * store and JSON-RPC handler, behind the same route) running a bare `AgentExecutor` that publishes
 * the same parts in the same status updates — under `/raw`. Both answer an action `burst` (context
 * `{n}`) with `n` data-model updates, 64 per tick, and an action `ping` with one. Prints its URL.
 */

import { type Part, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  InMemoryTaskStore,
} from '@a2a-js/sdk/server';
import {
  type ActionEvent,
  BASIC_CATALOG_ID,
  type Connection,
  isRecord,
  type ServerMessage,
} from '@a2ui-ts/core';
import { Hono } from 'hono';
import { serveA2a } from '../src/node.js';
import { createA2uiDataPart } from '../src/protocol/a2ui-parts.js';
import { agentCardToJson, createAgentCard } from '../src/server/agent-card.js';
import { createA2aServer } from '../src/server/create-a2a-server.js';
import { createJsonRpcRoute } from '../src/server/json-rpc-route.js';
import { statusUpdate } from '../src/server/task-events.js';

/** How many messages the agent sends before yielding to I/O. */
const SLICE = 64;

const now = () => performance.timeOrigin + performance.now();
const text = 'The quick brown fox jumps over the lazy dog. '.repeat(2);

/** The same payload for both endpoints: a data-model update stamped with its send time. */
function message(index: number): ServerMessage {
  return {
    version: 'v0.9',
    updateDataModel: {
      surfaceId: 'bench',
      path: `/items/${index}`,
      value: { sentAt: now(), text },
    },
  };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `n` messages, `SLICE` per tick, handed to `emit` one slice at a time. */
async function produce(n: number, emit: (slice: ServerMessage[], first: number) => void) {
  for (let index = 0; index < n; index += SLICE) {
    const slice: ServerMessage[] = [];
    for (let offset = index; offset < Math.min(n, index + SLICE); offset++)
      slice.push(message(offset));
    emit(slice, index);
    await tick();
  }
}

const agent = {
  onConnect(connection: Connection) {
    connection.send({
      version: 'v0.9',
      createSurface: { surfaceId: 'bench', catalogId: BASIC_CATALOG_ID },
    });
  },
  async onAction(connection: Connection, action: ActionEvent) {
    const n = action.name === 'burst' ? Number((action.context as { n?: unknown }).n) : 1;
    await produce(n, (slice) => connection.send(slice));
  },
};
const a2ui = createA2aServer({ agent });
/** The same, keeping whole task histories as the SDK's store does (what the baseline pays). */
const a2uiFullHistory = createA2aServer({ agent, maxTaskHistory: Number.POSITIVE_INFINITY });
/**
 * What the bare executor does: the same status updates (built by the binding's `statusUpdate`),
 * with the same parts, straight on the bus.
 */
let seq = 0;
const executor: AgentExecutor = {
  async execute(context, bus) {
    const { taskId, contextId } = context;
    bus.publish(
      AgentEvent.task(
        context.task ?? {
          id: taskId,
          contextId,
          status: {
            state: TaskState.TASK_STATE_WORKING,
            message: undefined,
            timestamp: new Date().toISOString(),
          },
          artifacts: [],
          history: [context.userMessage],
          metadata: undefined,
        },
      ),
    );
    const data = context.userMessage.parts[0]?.content;
    const action =
      data?.$case === 'data' && isRecord(data.value)
        ? (data.value.action as { name: string; context: { n?: number } } | undefined)
        : undefined;
    const n = action?.name === 'burst' ? Number(action.context.n) : action ? 1 : 0;
    const status = (state: TaskState, parts: Part[] = []) =>
      bus.publish(AgentEvent.statusUpdate(statusUpdate({ taskId, contextId }, state, parts)));
    await produce(n, (slice) =>
      status(
        TaskState.TASK_STATE_WORKING,
        slice.map((entry) => createA2uiDataPart(entry, { seq: ++seq })),
      ),
    );
    status(TaskState.TASK_STATE_INPUT_REQUIRED);
  },
  async cancelTask() {},
};
const rawCard = createAgentCard('http://localhost/raw', ['1.0']);
const raw = new Hono();
raw.get('/.well-known/agent-card.json', (c) => {
  const url = new URL(c.req.url);
  return c.json(agentCardToJson(createAgentCard(`${url.origin}/raw`, ['1.0'])));
});
raw.post(
  '/',
  createJsonRpcRoute({
    handler: new DefaultRequestHandler(rawCard, new InMemoryTaskStore(), executor),
    authenticate: async () => ({ ok: true, principal: undefined }),
    maxRequestBytes: 1_048_576,
    bodyTimeoutMs: 10_000,
    keepAliveIntervalMs: 15_000,
    authenticated: false,
    userName: String,
  }),
);

const app = new Hono().route('/a2ui', a2ui).route('/a2ui-full', a2uiFullHistory).route('/raw', raw);
const node = await serveA2a({
  fetch: app.fetch,
  close: async () => {
    await a2ui.close();
    await a2uiFullHistory.close();
  },
});
console.log(node.url);
process.on('SIGTERM', () => {
  void node.close().then(() => process.exit(0));
});
