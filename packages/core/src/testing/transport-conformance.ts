/**
 * The shared transport conformance suite (ARCHITECTURE §3, §6): every transport package runs it
 * against a real server with its own harness. A harness declares the transport's capabilities;
 * the suite runs every case of each declared one and lists every case it did not run as a
 * skipped test named after the missing capability — never a silent skip. A declared capability
 * whose harness hook is missing fails. Final states are compared through the processor's
 * snapshot. Requires vitest.
 *
 * @example
 * ```ts
 * describeTransportConformance('sse-jsonrpc', {
 *   capabilities: { resume: true, auth: true, limits: true, turnResults: false, serverPush: true },
 *   async start(agent, options) {
 *     const server = await listen(createSseJsonRpcServer({ agent, ...toServerOptions(options) }));
 *     return { createTransport: () => connectSseJsonRpc({ url: server.url }), … };
 *   },
 * });
 * ```
 */
import { describe, expect, it } from 'vitest';
import type { A2uiAgent, Connection, DisconnectReason } from '../agent/agent.js';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { A2uiError } from '../errors/a2ui-error.js';
import type { ResumeStore, ResumeToken } from '../link/resume-store.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type {
  ActionEvent,
  ActionMessage,
  ClientError,
  ClientMessageMetadata,
  ServerMessage,
} from '../protocol/messages.js';
import { MessageProcessor } from '../state/message-processor.js';
import { snapshotState } from '../state/snapshot.js';
import type { ClientTransport, TransportEvent } from '../transport/client-transport.js';
import { EXAMPLE_STREAMS } from './example-streams.js';
import { createChangeNotifier, waitForClient } from './wait-for.js';

/** What a transport can do; each enables a group of cases. */
export interface TransportCapabilities {
  /** Resumes a dropped link without loss, and resets when it cannot. Hooks: `dropLink`, `severLink`, `restoreLink`. */
  readonly resume: boolean;
  /** Binds connections to the principal of `authenticate`. Hooks: `createTransport({ principal })`, `hijack`. */
  readonly auth: boolean;
  /** Refuses client messages above `maxClientMessageBytes` with a clear error. */
  readonly limits: boolean;
  /** Answers each client message with the agent's turn: `send` settles once the answer is queued as events. */
  readonly turnResults: boolean;
  /** Delivers what the agent sends between turns without a client request. */
  readonly serverPush: boolean;
  /**
   * A new transport given the `ResumeStore` of one that went away (a reloaded page) resumes its
   * session: the same surfaces, no new `onConnect`. Hooks: `createTransport({ resume })`, `abandon`.
   * @default false
   */
  readonly reload?: boolean;
}

/** How the suite wants a server configured. */
export interface ConformanceServerOptions {
  /** The connection grace period. */
  readonly reconnectGraceMs: number;
  /** Authenticate every request; a client's principal is the `principal` its transport was created with. */
  readonly auth?: boolean;
  /** Messages each connection keeps for replay (`replayBuffer.maxEvents`). */
  readonly replayBufferEvents?: number;
  /** Largest client message with its metadata, in bytes (`maxClientMessageBytes`). */
  readonly maxClientMessageBytes?: number;
  /** The host's `snapshots` (a client the log no longer covers gets a snapshot, not a reset). */
  readonly snapshots?: boolean;
}

/** What a hijack attempt got back: the error code of each step, or `'accepted'`. */
export interface HijackOutcome {
  /** Resuming (or following) the victim's connection as the other principal. */
  readonly resume: string;
  /** Sending an action on the victim's connection as the other principal. */
  readonly send: string;
}

/** A running server under test. */
export interface ConformanceServer {
  /**
   * A new client transport connected to this server (as `principal` when the server
   * authenticates), keeping its resume token in `resume` when given.
   */
  createTransport(options?: {
    principal?: string;
    resume?: ResumeStore;
  }): ClientTransport | Promise<ClientTransport>;
  /**
   * Ends `transport` as a page reload does: its link is cut and it never says goodbye, so the
   * server keeps the session for its grace period.
   */
  abandon?(transport: ClientTransport): void | Promise<void>;
  /** Breaks the link under `transport` as a network fault would; the transport reconnects by itself. */
  dropLink?(transport: ClientTransport): void | Promise<void>;
  /** Breaks the link and keeps refusing the transport's reconnects until {@link restoreLink}. */
  severLink?(transport: ClientTransport): void | Promise<void>;
  /** Lets a severed transport reconnect. */
  restoreLink?(transport: ClientTransport): void | Promise<void>;
  /**
   * Tries to take over `victim`'s connection as `principal`: resumes (or follows) it, and sends
   * `message` on it.
   */
  hijack?(
    victim: ClientTransport,
    principal: string,
    message: ActionMessage,
  ): Promise<HijackOutcome>;
  /**
   * The next `count` deliveries of client messages from `transport` are refused as an overloaded
   * server does (HTTP 503, a busy agent); every delivery attempt is timestamped.
   */
  failReturnChannel(transport: ClientTransport, count: number): void;
  /** When each delivery attempt of `transport` reached the server (`Date.now()`), refused ones included. */
  returnChannelAttempts(transport: ClientTransport): readonly number[];
  /**
   * The smallest delay the transport waits before redelivering after a refusal, as the harness
   * configured it (at least 5 ms, so that a storm of immediate retries is told apart).
   */
  readonly minRetryDelayMs: number;
  /** Live server-side sessions, for leak checks. */
  sessionCount(): number | Promise<number>;
  close(): Promise<void>;
}

/** How the suite starts servers. */
export interface TransportConformanceHarness {
  readonly capabilities: TransportCapabilities;
  /** Starts a server hosting `agent` on 127.0.0.1, port 0. */
  start(agent: A2uiAgent, options: ConformanceServerOptions): Promise<ConformanceServer>;
}

interface RecordedInbound {
  kind: 'action' | 'error';
  action?: ActionEvent;
  error?: ClientError;
  metadata: ClientMessageMetadata | undefined;
}

function recordingAgent(
  onConnect: (connection: Connection, count: number) => void | Promise<void>,
) {
  const inbound: RecordedInbound[] = [];
  const disconnects: DisconnectReason[] = [];
  const connections: Connection[] = [];
  const { notify, until } = createChangeNotifier();
  const agent: A2uiAgent = {
    async onConnect(connection) {
      connections.push(connection);
      notify();
      await onConnect(connection, connections.length);
    },
    onAction(_connection, action, metadata) {
      inbound.push({ kind: 'action', action, metadata });
      notify();
    },
    onError(_connection, error, metadata) {
      inbound.push({ kind: 'error', error, metadata });
      notify();
    },
    onDisconnect(_connection, reason) {
      disconnects.push(reason);
      notify();
    },
  };
  return {
    agent,
    inbound,
    connections,
    disconnects,
    until,
    inboundCount: (count: number) => until(() => inbound.length >= count),
    disconnected: () => until(() => disconnects.length > 0).then(() => disconnects[0]!),
  };
}

/** Messages applied (or rejected) by the client so far. */
function countReceived(client: A2uiClient): () => number {
  let count = 0;
  client.subscribe((event) => {
    if (event.type === 'received') count += event.result.applied + event.result.errors.length;
  });
  return () => count;
}

const createCounter: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 'counter', catalogId: BASIC_CATALOG_ID },
};
const counterUpdate = (index: number, path = `/values/${index}`): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'counter', path, value: index },
});
const counterStream = (count: number): ServerMessage[] => [
  createCounter,
  ...Array.from({ length: count }, (_, index) => counterUpdate(index)),
];

function expectedState(messages: readonly ServerMessage[]) {
  const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
  processor.process([...messages]);
  return snapshotState(processor);
}

const buttonSurface: ServerMessage[] = [
  {
    version: 'v0.9',
    createSurface: { surfaceId: 'form', catalogId: BASIC_CATALOG_ID, sendDataModel: true },
  },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'form',
      components: [
        {
          id: 'root',
          component: 'Button',
          child: 'label',
          action: { event: { name: 'submit', context: { n: { path: '/n' }, fixed: 'x' } } },
        },
        { id: 'label', component: 'Text', text: 'Send' },
      ],
    },
  },
];

/** The button surface has arrived whole. */
const formReady = (client: A2uiClient): boolean =>
  client.processor.getSurface('form')?.components.has('label') ?? false;

const action = (name: string, context: Record<string, unknown> = {}): ActionMessage => ({
  version: 'v0.9',
  action: {
    name,
    surfaceId: 'form',
    sourceComponentId: 'root',
    timestamp: new Date().toISOString(),
    context,
  },
});

const codeOf = (error: unknown): string =>
  A2uiError.isInstance(error) ? error.code : `not an A2uiError: ${String(error)}`;

/** What a case gets: the server, the transport and a client reading it. */
interface CaseRun {
  readonly server: ConformanceServer;
  readonly transport: ClientTransport;
  readonly client: A2uiClient;
  /** Messages the client applied (or rejected) so far. */
  readonly received: () => number;
  /** Status events the client saw. */
  readonly statuses: readonly string[];
}

interface CaseOptions extends Partial<ConformanceServerOptions> {
  /** Start reading the transport before the case runs. @default true */
  readonly connect?: boolean;
  /** The principal of the client (with `auth`). */
  readonly principal?: string;
  /** Where the client keeps its resume token. */
  readonly resume?: ResumeStore;
}

/** Starts a server for `agent` and a client on it, runs `body`, and closes both whatever happens. */
async function runCase(
  harness: TransportConformanceHarness,
  agent: A2uiAgent,
  options: CaseOptions,
  body: (run: CaseRun) => Promise<void>,
): Promise<void> {
  const { connect = true, principal, resume, ...serverOptions } = options;
  const server = await harness.start(agent, { reconnectGraceMs: GRACE_LONG, ...serverOptions });
  try {
    const transport = await server.createTransport({
      ...(principal ? { principal } : {}),
      ...(resume ? { resume } : {}),
    });
    const client = new A2uiClient({ transport });
    const received = countReceived(client);
    const statuses: string[] = [];
    client.subscribe((event) => {
      if (event.type === 'status') statuses.push(event.status);
    });
    if (connect) void client.connect().catch(() => {});
    try {
      await body({ server, transport, client, received, statuses });
    } finally {
      await client.close();
    }
  } finally {
    await server.close();
  }
}

function required<T>(value: T | undefined, hook: string, capability: string): T {
  if (value === undefined)
    throw new Error(`The harness declares "${capability}" but has no ${hook}() hook.`);
  return value;
}

/** Resolves once `condition()` holds, re-checked on every turn of the event loop; the test timeout bounds it. */
async function eventually(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 0));
}

const GRACE_LONG = 60_000;

/** Whether `actual` equals `expected` as `toEqual` sees it (for a condition to wait on). */
function isDeepEqual(actual: unknown, expected: unknown): boolean {
  try {
    expect(actual).toEqual(expected);
    return true;
  } catch {
    return false;
  }
}

/** A resume store in memory, as `sessionStorage` is to a page: it outlives the transport. */
function memoryResumeStore(): ResumeStore & { readonly token: ResumeToken | undefined } {
  let token: ResumeToken | undefined;
  return {
    get token() {
      return token;
    },
    load: () => token,
    save: (next) => {
      token = next;
    },
    clear: () => {
      token = undefined;
    },
  };
}

/** The data-model values at `path` in the messages of `events`. */
function valuesAt(events: readonly TransportEvent[], path: string): unknown[] {
  return events.flatMap((event) => {
    if (event.type !== 'messages') return [];
    const input = typeof event.messages === 'string' ? JSON.parse(event.messages) : event.messages;
    return (Array.isArray(input) ? input : [input]).flatMap((message) =>
      message.updateDataModel?.path === path ? [message.updateDataModel.value] : [],
    );
  });
}

/**
 * Registers the conformance tests under `describe(name)`.
 */
export function describeTransportConformance(
  name: string,
  harness: TransportConformanceHarness,
): void {
  const caps = harness.capabilities;
  /** A case that needs `capability`: run it, or list it as not run. */
  const when = (
    capability: keyof TransportCapabilities | `no ${keyof TransportCapabilities}`,
    title: string,
    body: () => Promise<void>,
  ) => {
    const negated = capability.startsWith('no ');
    const key = (negated ? capability.slice(3) : capability) as keyof TransportCapabilities;
    const enabled = negated ? !caps[key] : caps[key];
    if (enabled) it(`[${capability}] ${title}`, body);
    else
      it.skip(
        `[not run: ${name} ${negated ? 'declares' : 'does not declare'} "${key}"] ${title}`,
        body,
      );
  };

  describe(`transport conformance: ${name}`, () => {
    it('delivers every official example stream in order, one message per frame, none lost or repeated', async () => {
      const all = EXAMPLE_STREAMS.flatMap((stream) => stream.messages);
      const { agent } = recordingAgent((connection) => {
        for (const message of all) connection.send(message);
      });
      await runCase(harness, agent, {}, async ({ client, received }) => {
        const errors: ClientError[] = [];
        client.processor.onError((error) => errors.push(error));
        await waitForClient(client, () => received() >= all.length, `${all.length} messages`);
        expect(received()).toBe(all.length);
        expect(errors).toEqual([]);
        expect(snapshotState(client.processor)).toEqual(expectedState(all));
      });
    });

    it('keeps the order of a long stream and of batches sent as one array', async () => {
      const stream = counterStream(300);
      const { agent } = recordingAgent((connection) => {
        connection.send(stream.slice(0, 101));
        for (const message of stream.slice(101)) connection.send(message);
      });
      await runCase(harness, agent, { connect: false }, async ({ client }) => {
        const seen: number[] = [];
        client.subscribe((event) => {
          if (event.type !== 'received') return;
          const input = typeof event.input === 'string' ? JSON.parse(event.input) : event.input;
          for (const message of Array.isArray(input) ? input : [input])
            if (message.updateDataModel) seen.push(message.updateDataModel.value);
        });
        void client.connect().catch(() => {});
        await waitForClient(client, () => seen.length >= 300, '300 data updates');
        expect(seen).toEqual(Array.from({ length: 300 }, (_, index) => index));
        expect(snapshotState(client.processor)).toEqual(expectedState(stream));
      });
    });

    it('carries actions and errors to the agent in order, each with client capabilities and the client data model', async () => {
      const recorder = recordingAgent((connection) => connection.send(buttonSurface));
      await runCase(harness, recorder.agent, {}, async ({ client }) => {
        await waitForClient(client, () => formReady(client), 'the form surface');
        const model = client.processor.getSurface('form')!.dataModel;
        for (let n = 0; n < 10; n++) {
          model.set('/n', n);
          await client.dispatchAction('form', 'root');
        }
        await client.send({
          version: 'v0.9',
          error: { code: 'CUSTOM', surfaceId: 'form', message: 'after the actions' },
        });
        await recorder.inboundCount(11);
        const actions = recorder.inbound.filter((entry) => entry.kind === 'action');
        expect(actions.map((entry) => entry.action!.context)).toEqual(
          Array.from({ length: 10 }, (_, n) => ({ n, fixed: 'x' })),
        );
        for (const entry of recorder.inbound)
          expect(entry.metadata?.a2uiClientCapabilities).toEqual(
            client.getMetadata().a2uiClientCapabilities,
          );
        expect(actions[3]!.metadata?.a2uiClientDataModel).toEqual({
          version: 'v0.9',
          surfaces: { form: { n: 3 } },
        });
        expect(actions[3]!.action).toMatchObject({
          name: 'submit',
          surfaceId: 'form',
          sourceComponentId: 'root',
        });
        expect(recorder.inbound[10]).toMatchObject({
          kind: 'error',
          error: { code: 'CUSTOM', message: 'after the actions' },
        });
      });
    });

    it('delivers a client message sent before events() once the connection opens, exactly once', async () => {
      const recorder = recordingAgent((connection) => connection.send(buttonSurface));
      await runCase(harness, recorder.agent, { connect: false }, async ({ client }) => {
        const early = client.send(action('early'));
        void client.connect().catch(() => {});
        await early;
        await recorder.inboundCount(1);
        await waitForClient(client, () => formReady(client), 'the form surface');
        await client.send(action('late'));
        await recorder.inboundCount(2);
        expect(recorder.inbound.map((entry) => entry.action?.name)).toEqual(['early', 'late']);
        expect(recorder.connections).toHaveLength(1);
      });
    });

    it('backs off while the return channel answers 503, shows the trouble, then delivers the message once', async () => {
      const recorder = recordingAgent((connection) => connection.send(buttonSurface));
      await runCase(
        harness,
        recorder.agent,
        {},
        async ({ server, transport, client, statuses }) => {
          await waitForClient(client, () => formReady(client), 'the form surface');
          // Below a few milliseconds a re-post storm and a backoff look alike.
          expect(server.minRetryDelayMs).toBeGreaterThanOrEqual(5);
          const refusals = 4;
          server.failReturnChannel(transport, refusals);
          await client.dispatchAction('form', 'root');
          await recorder.inboundCount(1);
          const attempts = server.returnChannelAttempts(transport);
          expect(attempts.length).toBe(refusals + 1);
          expect(recorder.inbound).toHaveLength(1);
          // Every redelivery waited at least the first backoff delay: no immediate re-post storm.
          for (let index = 1; index < attempts.length; index++)
            expect(attempts[index]! - attempts[index - 1]!).toBeGreaterThanOrEqual(
              server.minRetryDelayMs - 1,
            );
          expect(statuses).toContain('degraded');
          expect(statuses.at(-1)).toBe('open');
        },
      );
    });

    it('tells the agent when the client closes, and forgets the session', async () => {
      const recorder = recordingAgent((connection) => connection.send(counterStream(1)));
      await runCase(harness, recorder.agent, {}, async ({ server, client, received }) => {
        await waitForClient(client, () => received() >= 2, 'the first messages');
        await client.close();
        expect(await recorder.disconnected()).toBe('client-closed');
        await eventually(async () => (await server.sessionCount()) === 0);
      });
    });

    it('closes the client when the agent closes the connection', async () => {
      const recorder = recordingAgent((connection) => {
        connection.send(counterStream(3));
        connection.close();
      });
      await runCase(harness, recorder.agent, { connect: false }, async ({ client, received }) => {
        await client.connect().catch(() => {});
        expect(received()).toBe(4);
        expect(snapshotState(client.processor)).toEqual(expectedState(counterStream(3)));
        expect(client.status).toBe('closed');
        expect(await recorder.disconnected()).toBe('server-closed');
      });
    });

    when(
      'serverPush',
      'delivers what the agent sends between turns without a client request',
      async () => {
        const recorder = recordingAgent((connection) => connection.send(createCounter));
        await runCase(harness, recorder.agent, {}, async ({ client, received }) => {
          await waitForClient(client, () => received() >= 1, 'the surface');
          for (let index = 0; index < 5; index++)
            recorder.connections[0]!.send(counterUpdate(index));
          await waitForClient(client, () => received() >= 6, 'five pushes');
          expect(snapshotState(client.processor)).toEqual(expectedState(counterStream(5)));
        });
      },
    );

    when('turnResults', "settles send() once the agent's answer is queued as events", async () => {
      const agent: A2uiAgent = {
        onConnect: (connection) => connection.send(buttonSurface),
        async onAction(connection, event) {
          await Promise.resolve();
          connection.send({
            version: 'v0.9',
            updateDataModel: { surfaceId: 'form', path: '/answer', value: event.name },
          });
        },
      };
      const server = await harness.start(agent, { reconnectGraceMs: GRACE_LONG });
      const transport = await server.createTransport();
      try {
        const events = transport.events()[Symbol.asyncIterator]();
        const received: TransportEvent[] = [];
        let pendingNext: Promise<IteratorResult<TransportEvent>> | undefined;
        /** Reads what is already queued, without waiting for anything new. */
        const drain = async () => {
          while (true) {
            pendingNext ??= events.next();
            const next = await Promise.race([
              pendingNext,
              new Promise<'empty'>((resolve) => setTimeout(() => resolve('empty'), 0)),
            ]);
            if (next === 'empty') return;
            pendingNext = undefined;
            if (next.done) return;
            received.push(next.value);
          }
        };
        const metadata = {
          a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } },
        };
        await transport.send(action('first'), metadata);
        await drain();
        expect(valuesAt(received, '/answer')).toEqual(['first']);
        await transport.send(action('second'), metadata);
        await drain();
        expect(valuesAt(received, '/answer')).toEqual(['first', 'second']);
      } finally {
        await transport.close();
        await server.close();
      }
    });

    when(
      'no serverPush',
      'delivers what the agent sent between turns with the next turn, in order, none lost',
      async () => {
        const recorder = recordingAgent((connection) => connection.send(buttonSurface));
        await runCase(harness, recorder.agent, {}, async ({ client }) => {
          await waitForClient(client, () => formReady(client), 'the form surface');
          for (let index = 0; index < 3; index++)
            recorder.connections[0]!.send({
              version: 'v0.9',
              updateDataModel: { surfaceId: 'form', path: `/pushed/${index}`, value: index },
            });
          await client.dispatchAction('form', 'root');
          await waitForClient(
            client,
            () =>
              (
                client.processor.getSurface('form')!.dataModel.get('/pushed') as
                  | unknown[]
                  | undefined
              )?.length === 3,
            'the pushes',
          );
          expect(client.processor.getSurface('form')!.dataModel.get('/pushed')).toEqual([0, 1, 2]);
        });
      },
    );

    when(
      'limits',
      'refuses an oversized client message with a clear error, and the link survives',
      async () => {
        const recorder = recordingAgent((connection) => connection.send(buttonSurface));
        await runCase(
          harness,
          recorder.agent,
          { maxClientMessageBytes: 8_192 },
          async ({ client }) => {
            await waitForClient(client, () => formReady(client), 'the form surface');
            const oversized = client.send(action('huge', { blob: 'x'.repeat(20_000) }));
            await expect(oversized).rejects.toSatisfy(
              (error: unknown) => codeOf(error) === 'MESSAGE_TOO_LARGE',
            );
            await client.send(action('small'));
            await recorder.inboundCount(1);
            expect(recorder.inbound.map((entry) => entry.action?.name)).toEqual(['small']);
            recorder.connections[0]!.send({
              version: 'v0.9',
              updateDataModel: { surfaceId: 'form', path: '/after', value: true },
            });
            await client.send(action('again'));
            await waitForClient(
              client,
              () => client.processor.getSurface('form')?.dataModel.get('/after') === true,
              'a message after the refusal',
            );
            expect(client.status).not.toBe('closed');
          },
        );
      },
    );

    when(
      'resume',
      'resumes after a dropped link without losing or repeating a message, and the agent sees one connection',
      async () => {
        const stream = counterStream(200);
        const recorder = recordingAgent((connection) => {
          for (const message of stream) connection.send(message);
        });
        await runCase(
          harness,
          recorder.agent,
          { connect: false },
          async ({ server, transport, client, received }) => {
            const dropLink = required(server.dropLink, 'dropLink', 'resume');
            let dropped = false;
            client.subscribe(() => {
              if (!dropped && received() >= 50) {
                dropped = true;
                void dropLink(transport);
              }
            });
            void client.connect().catch(() => {});
            await waitForClient(client, () => received() >= stream.length, 'the whole stream');
            expect(dropped).toBe(true);
            expect(received()).toBe(stream.length);
            expect(snapshotState(client.processor)).toEqual(expectedState(stream));
            expect(recorder.connections).toHaveLength(1);
          },
        );
      },
    );

    when(
      'resume',
      "ends the connection with onDisconnect('grace-expired') when the client does not come back",
      async () => {
        const recorder = recordingAgent((connection) => connection.send(counterStream(2)));
        await runCase(
          harness,
          recorder.agent,
          { reconnectGraceMs: 100 },
          async ({ server, transport, client, received }) => {
            const severLink = required(server.severLink, 'severLink', 'resume');
            await waitForClient(client, () => received() >= 3, 'the stream');
            await severLink(transport);
            expect(await recorder.disconnected()).toBe('grace-expired');
            await eventually(async () => (await server.sessionCount()) === 0);
          },
        );
      },
    );

    when(
      'resume',
      'without snapshots, resets after a gap the replay log no longer holds: a fresh onConnect, the old surfaces gone',
      async () => {
        const recorder = recordingAgent((connection, count) => {
          if (count === 1) connection.send(counterStream(2));
          else connection.send(buttonSurface);
        });
        await runCase(
          harness,
          recorder.agent,
          { replayBufferEvents: 5, snapshots: false },
          async ({ server, transport, client, received }) => {
            const severLink = required(server.severLink, 'severLink', 'resume');
            const restoreLink = required(server.restoreLink, 'restoreLink', 'resume');
            const resets: string[] = [];
            client.subscribe((event) => {
              if (event.type === 'reset') resets.push(event.reason ?? '');
            });
            await waitForClient(client, () => received() >= 3, 'the first stream');
            await severLink(transport);
            for (let index = 10; index < 30; index++)
              recorder.connections[0]!.send(counterUpdate(index));
            await restoreLink(transport);
            await recorder.until(() => recorder.connections.length === 2);
            await waitForClient(client, () => formReady(client), 'the fresh session');
            expect(resets).toHaveLength(1);
            expect(snapshotState(client.processor)).toEqual(expectedState(buttonSurface));
            expect(recorder.disconnects).toContain('reset');
          },
        );
      },
    );

    when(
      'resume',
      'sends a snapshot instead of a reset after a gap the replay log no longer holds: the same connection and surfaces, no new onConnect',
      async () => {
        // Keys, not indexes: a snapshot is JSON, where an array's holes would come back as nulls.
        const updates = Array.from({ length: 20 }, (_, index) =>
          counterUpdate(index, `/late/n${index}`),
        );
        const recorder = recordingAgent((connection) => connection.send(counterStream(2)));
        await runCase(
          harness,
          recorder.agent,
          { replayBufferEvents: 5 },
          async ({ server, transport, client, received }) => {
            const severLink = required(server.severLink, 'severLink', 'resume');
            const restoreLink = required(server.restoreLink, 'restoreLink', 'resume');
            const resets: string[] = [];
            client.subscribe((event) => {
              if (event.type === 'reset') resets.push(event.reason ?? '');
            });
            await waitForClient(client, () => received() >= 3, 'the first stream');
            await severLink(transport);
            recorder.connections[0]!.send(buttonSurface);
            recorder.connections[0]!.send(updates);
            recorder.connections[0]!.send({
              version: 'v0.9',
              deleteSurface: { surfaceId: 'form' },
            });
            await restoreLink(transport);
            const expected = expectedState([...counterStream(2), ...updates]);
            await waitForClient(
              client,
              () => isDeepEqual(snapshotState(client.processor), expected),
              'the surfaces as the agent has them',
            );
            // Live messages follow the snapshot on the same connection.
            recorder.connections[0]!.send(counterUpdate(99, '/after'));
            await waitForClient(
              client,
              () => client.processor.getSurface('counter')?.dataModel.get('/after') === 99,
              'a live message after the snapshot',
            );
            expect(resets).toEqual([]);
            expect(recorder.connections).toHaveLength(1);
            expect(recorder.disconnects).toEqual([]);
          },
        );
      },
    );

    when(
      'reload',
      'a new transport with the resume store of one that went away (a reloaded page) resumes its session: the same surfaces, no new onConnect',
      async () => {
        const updates = Array.from({ length: 20 }, (_, index) => counterUpdate(index));
        const recorder = recordingAgent((connection) => {
          connection.send(buttonSurface);
          connection.send([createCounter, ...updates]);
        });
        const resume = memoryResumeStore();
        await runCase(
          harness,
          recorder.agent,
          // Fewer than were sent: the reloaded page gets a snapshot, not a replay.
          { replayBufferEvents: 5, resume, principal: 'reloader' },
          async ({ server, transport, client }) => {
            const abandon = required(server.abandon, 'abandon', 'reload');
            const expected = expectedState([...buttonSurface, createCounter, ...updates]);
            await waitForClient(
              client,
              () => isDeepEqual(snapshotState(client.processor), expected),
              'the first page',
            );
            expect(resume.token?.connectionId).toEqual(expect.any(String));
            await abandon(transport);
            // React StrictMode (development) mounts the page's effect twice: the reloaded page
            // creates a transport and closes it before it ever links. It had no session to end,
            // so the token stays for the one created next.
            const token = resume.token;
            const unused = await server.createTransport({ principal: 'reloader', resume });
            await unused.close();
            expect(resume.token).toEqual(token);
            const reloaded = new A2uiClient({
              transport: await server.createTransport({ principal: 'reloader', resume }),
            });
            const resets: string[] = [];
            reloaded.subscribe((event) => {
              if (event.type === 'reset') resets.push(event.reason ?? '');
            });
            void reloaded.connect().catch(() => {});
            try {
              await waitForClient(
                reloaded,
                () => isDeepEqual(snapshotState(reloaded.processor), expected),
                'the same surfaces after the reload',
              );
              await reloaded.dispatchAction('form', 'root');
              await recorder.inboundCount(1);
              expect(recorder.inbound[0]!.action?.name).toBe('submit');
              expect(resets).toEqual([]);
              expect(recorder.connections).toHaveLength(1);
              expect(recorder.disconnects).toEqual([]);
            } finally {
              await reloaded.close();
            }
            // A session that ended is not resumed by the next page.
            expect(resume.token).toBeUndefined();
          },
        );
      },
    );

    when(
      'auth',
      "refuses another principal's resume and actions on a connection, and the owner is undisturbed",
      async () => {
        const recorder = recordingAgent((connection) => connection.send(buttonSurface));
        await runCase(
          harness,
          recorder.agent,
          { auth: true, principal: 'alice' },
          async ({ server, transport, client }) => {
            const hijack = required(server.hijack, 'hijack', 'auth');
            await waitForClient(client, () => formReady(client), 'the form surface');
            const outcome = await hijack(transport, 'mallory', action('stolen'));
            expect(outcome).toEqual({ resume: 'FORBIDDEN', send: 'FORBIDDEN' });
            expect(recorder.inbound).toHaveLength(0);
            await client.dispatchAction('form', 'root');
            await recorder.inboundCount(1);
            recorder.connections[0]!.send({
              version: 'v0.9',
              updateDataModel: { surfaceId: 'form', path: '/still', value: 'mine' },
            });
            await client.dispatchAction('form', 'root');
            await waitForClient(
              client,
              () => client.processor.getSurface('form')?.dataModel.get('/still') === 'mine',
              "the owner's next message",
            );
            expect(recorder.connections).toHaveLength(1);
            expect(recorder.disconnects).toEqual([]);
          },
        );
      },
    );
  });
}
