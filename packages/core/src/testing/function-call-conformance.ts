/**
 * The shared function-call conformance suite: v1.0 `callRendererFunction` →
 * `rendererFunctionResponse` and `callAgentFunction` → `agentFunctionResponse` over a real
 * binding, with the guarantees actions have — answered and correlated by `functionCallId`, each
 * refusal in its typed error, a retransmitted call executed once, an answer lost in a cut link
 * replayed on resume, and a call whose connection is reset rejected with `CONNECTION_CLOSED`.
 * Every binding runs it with the harness of its transport conformance
 * ({@link TransportConformanceHarness}); cases that need a capability the harness does not declare
 * are listed as not run. Requires vitest.
 *
 * @example
 * ```ts
 * describeFunctionCallConformance('websocket', harness); // the same harness as describeTransportConformance
 * ```
 */
import { describe, expect, it } from 'vitest';
import type { A2uiAgent, Connection } from '../agent/agent.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { A2uiError } from '../errors/a2ui-error.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ClientMessage, ServerMessage } from '../protocol/messages.js';
import type { AgentFunction } from '../rpc/agent-functions.js';
import { FUNCTION_CALL_VERSION } from '../rpc/function-call-messages.js';
import type { RendererFunction } from '../rpc/renderer-functions.js';
import type {
  ConformanceServer,
  ConformanceServerOptions,
  TransportCapabilities,
  TransportConformanceHarness,
} from './transport-conformance.js';
import { createV10ActionSurface } from './v1-action-surface.js';
import { createChangeNotifier, createDeferred, waitForClient } from './wait-for.js';

/** Everything a case touches: the server, one client on it, and what the agent saw. */
interface FunctionCallRun {
  readonly server: ConformanceServer;
  readonly client: A2uiClient;
  readonly transport: Awaited<ReturnType<ConformanceServer['createTransport']>>;
  /** The connections the agent saw open, in order. */
  readonly connections: Connection[];
  /** Resolves once `condition` holds, re-checked on every agent hook and client event. */
  until(condition: () => boolean): Promise<void>;
  /** `agentFunctionResponse` / `callRendererFunction` messages the client received, by kind. */
  received(kind: 'agentFunctionResponse' | 'callRendererFunction'): number;
}

interface CaseSetup {
  readonly functions?: AgentFunction[];
  readonly rendererFunctions?: RendererFunction[];
  /** The agent's `onConnect` after it sent the surface; may call renderer functions. */
  readonly onConnect?: (connection: Connection) => void | Promise<void>;
  readonly onAction?: A2uiAgent['onAction'];
  readonly onError?: A2uiAgent['onError'];
  readonly server?: Partial<ConformanceServerOptions>;
}

const surface: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 'fn', catalogId: BASIC_CATALOG_ID },
};
const note = (path: string, value: unknown): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'fn', path, value },
});
const valueAt = (client: A2uiClient, path: string): unknown =>
  client.processor.getSurface('fn')?.dataModel.get(path);
const GRACE_LONG = 60_000;
const timeZone: RendererFunction = {
  name: 'getTimeZone',
  allowedCallers: 'agentOnly',
  implementation: () => 'Europe/Berlin',
};
const suggest: AgentFunction = {
  name: 'suggestNames',
  parameters: {
    type: 'object',
    properties: { prefix: { type: 'string' } },
    required: ['prefix'],
  },
  handler: ({ prefix }) => [`${prefix}a`, `${prefix}am`],
};
const callOf = (name: string) => ({ catalogId: BASIC_CATALOG_ID, timeoutMs: 10_000, name });

/** The error a promise rejected with (an `A2uiError`), or a failure when it resolved. */
async function failure(promise: Promise<unknown>): Promise<A2uiError> {
  const outcome = await promise.then(
    (value) => new Error(`resolved with ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
  if (!A2uiError.isInstance(outcome)) throw outcome;
  return outcome;
}

/** Starts a server with an agent made of `setup`, a client on it, runs `body`, closes both. */
async function runCase(
  harness: TransportConformanceHarness,
  setup: CaseSetup,
  body: (run: FunctionCallRun) => Promise<void>,
): Promise<void> {
  const connections: Connection[] = [];
  const { notify, until } = createChangeNotifier();
  const agent: A2uiAgent = {
    functions: setup.functions ?? [],
    async onConnect(connection) {
      connections.push(connection);
      notify();
      connection.send(surface);
      await setup.onConnect?.(connection);
    },
    ...(setup.onAction ? { onAction: setup.onAction } : {}),
    ...(setup.onError ? { onError: setup.onError } : {}),
    onDisconnect: () => notify(),
  };
  const server = await harness.start(agent, { reconnectGraceMs: GRACE_LONG, ...setup.server });
  try {
    const transport = await server.createTransport();
    const client = new A2uiClient({ transport, rendererFunctions: setup.rendererFunctions });
    const counts = { agentFunctionResponse: 0, callRendererFunction: 0 };
    client.subscribe((event) => {
      if (event.type === 'received') {
        const input = typeof event.input === 'string' ? JSON.parse(event.input) : event.input;
        for (const message of Array.isArray(input) ? input : [input])
          for (const kind of ['agentFunctionResponse', 'callRendererFunction'] as const)
            if (message && kind in message) counts[kind]++;
      }
      notify();
    });
    void client.connect().catch(() => {});
    try {
      await waitForClient(client, () => client.processor.getSurface('fn') !== undefined, 'surface');
      await body({
        server,
        client,
        transport,
        connections,
        until,
        received: (kind) => counts[kind],
      });
    } finally {
      await client.close();
    }
  } finally {
    await server.close();
  }
}

function required<T>(value: T | undefined, hook: string): T {
  if (value === undefined)
    throw new Error(`The harness declares "resume" but has no ${hook}() hook.`);
  return value;
}

/** Each case: the capability it needs (if any), its title, its body. */
type FunctionCallCase = readonly [
  keyof TransportCapabilities | undefined,
  string,
  (harness: TransportConformanceHarness) => Promise<void>,
];

const answered: FunctionCallCase = [
  undefined,
  "answers both directions: the agent's turn goes on after the renderer's answer, the client gets the agent's value",
  (harness) =>
    runCase(
      harness,
      {
        functions: [suggest],
        rendererFunctions: [timeZone],
        async onConnect(connection) {
          const zone = await connection.callRendererFunction('getTimeZone', {}, callOf('tz'));
          connection.send(note('/zone', zone));
        },
      },
      async ({ client, connections }) => {
        await waitForClient(client, () => valueAt(client, '/zone') !== undefined, 'the zone');
        expect(valueAt(client, '/zone')).toBe('Europe/Berlin');
        await expect(
          client.callAgentFunction('fn', { call: 'suggestNames', args: { prefix: 'Ad' } }),
        ).resolves.toEqual(['Ada', 'Adam']);
        expect(connections).toHaveLength(1);
      },
    ),
];

const timedOut: FunctionCallCase = [
  undefined,
  'rejects with TIMEOUT when no answer comes within timeoutMs, in both directions',
  async (harness) => {
    const release = createDeferred();
    const outcome = createDeferred<A2uiError>();
    try {
      await runCase(
        harness,
        {
          functions: [{ name: 'slow', handler: () => release.promise }],
          rendererFunctions: [
            { name: 'never', allowedCallers: 'agentOnly', implementation: () => release.promise },
          ],
          async onConnect(connection) {
            const call = connection.callRendererFunction(
              'never',
              {},
              {
                catalogId: BASIC_CATALOG_ID,
                timeoutMs: 50,
              },
            );
            outcome.resolve(await failure(call));
          },
        },
        async ({ client }) => {
          expect((await outcome.promise).code).toBe('TIMEOUT');
          const slow = client.callAgentFunction('fn', { call: 'slow' }, { timeoutMs: 50 });
          expect((await failure(slow)).code).toBe('TIMEOUT');
        },
      );
    } finally {
      release.resolve();
    }
  },
];

const refused: FunctionCallCase = [
  undefined,
  'refuses a rendererOnly function, an activation-gated one without a user gesture, and an unregistered one with INVALID_FUNCTION_CALL',
  async (harness) => {
    const codes = createDeferred<unknown[]>();
    const ran: string[] = [];
    await runCase(
      harness,
      {
        rendererFunctions: [
          { name: 'local', allowedCallers: 'rendererOnly', implementation: () => ran.push('l') },
          {
            name: 'openTab',
            allowedCallers: 'rendererOrAgent',
            requiresUserActivation: true,
            implementation: () => ran.push('o'),
          },
        ],
        async onConnect(connection) {
          const errors = [];
          for (const name of ['local', 'openTab', 'missing'])
            errors.push(await failure(connection.callRendererFunction(name, {}, callOf(name))));
          codes.resolve(errors.map((error) => [error.code, error.data?.code]));
        },
      },
      async () => {
        expect(await codes.promise).toEqual(
          Array(3).fill(['FUNCTION_CALL_FAILED', 'INVALID_FUNCTION_CALL']),
        );
        expect(ran).toEqual([]);
      },
    );
  },
];

const unknownAndInvalid: FunctionCallCase = [
  undefined,
  'answers an unknown agent function with UNKNOWN_FUNCTION and arguments that fail its schema with INVALID_FUNCTION_CALL',
  (harness) =>
    runCase(harness, { functions: [suggest] }, async ({ client }) => {
      const unknown = await failure(client.callAgentFunction('fn', { call: 'nope' }));
      expect([unknown.code, unknown.data?.code]).toEqual([
        'FUNCTION_CALL_FAILED',
        'UNKNOWN_FUNCTION',
      ]);
      const invalid = await failure(
        client.callAgentFunction('fn', { call: 'suggestNames', args: { prefix: 3 } }),
      );
      expect(invalid.data?.code).toBe('INVALID_FUNCTION_CALL');
    }),
];

const executionError: FunctionCallCase = [
  undefined,
  "answers a function that throws with EXECUTION_ERROR and a fixed message, never the thrower's text",
  async (harness) => {
    const agentSide = createDeferred<A2uiError>();
    const boom = () => {
      throw new Error('secret stack detail');
    };
    await runCase(
      harness,
      {
        functions: [{ name: 'explode', handler: boom }],
        rendererFunctions: [{ name: 'explode', allowedCallers: 'agentOnly', implementation: boom }],
        async onConnect(connection) {
          agentSide.resolve(
            await failure(connection.callRendererFunction('explode', {}, callOf('explode'))),
          );
        },
      },
      async ({ client }) => {
        const clientSide = await failure(client.callAgentFunction('fn', { call: 'explode' }));
        for (const error of [await agentSide.promise, clientSide]) {
          expect(error.data).toMatchObject({
            code: 'EXECUTION_ERROR',
            message: 'An error occurred during function execution.',
          });
          expect(JSON.stringify(error.data)).not.toContain('secret');
        }
      },
    );
  },
];

const retransmitted: FunctionCallCase = [
  undefined,
  'executes a retransmitted call once in each direction and answers every copy',
  async (harness) => {
    let agentRuns = 0;
    let rendererRuns = 0;
    const agentCall = createDeferred<unknown>();
    await runCase(
      harness,
      {
        functions: [{ name: 'count', handler: () => ++agentRuns }],
        rendererFunctions: [
          { name: 'count', allowedCallers: 'agentOnly', implementation: () => ++rendererRuns },
        ],
        onConnect(connection) {
          const call = connection.callRendererFunction(
            'count',
            {},
            {
              ...callOf('count'),
              functionCallId: 'agent-dup-1',
            },
          );
          // The same call again, as a retransmitting agent (or a replayed log) would send it.
          connection.send({
            version: FUNCTION_CALL_VERSION,
            callRendererFunction: {
              functionCallId: 'agent-dup-1',
              callFunction: { call: 'count', catalogId: BASIC_CATALOG_ID, args: {} },
            },
          } as unknown as ServerMessage);
          agentCall.resolve(call);
        },
      },
      async ({ client, until, received }) => {
        await expect(agentCall.promise).resolves.toBe(1);
        await until(() => received('callRendererFunction') >= 2);
        const first = client.callAgentFunction(
          'fn',
          { call: 'count' },
          { functionCallId: 'client-dup-1' },
        );
        const again: ClientMessage = {
          version: FUNCTION_CALL_VERSION,
          callAgentFunction: {
            surfaceId: 'fn',
            functionCallId: 'client-dup-1',
            callFunction: { call: 'count' },
          },
        } as unknown as ClientMessage;
        await client.send(again);
        await expect(first).resolves.toBe(1);
        await client.send(again);
        await until(() => received('agentFunctionResponse') >= 2);
        expect({ agentRuns, rendererRuns }).toEqual({ agentRuns: 1, rendererRuns: 1 });
      },
    );
  },
];

const acrossReconnect: FunctionCallCase = [
  'resume',
  'answers across a cut link: an answer sent while the link is down arrives on resume, on one connection',
  async (harness) => {
    const started = createDeferred();
    const release = createDeferred<string>();
    await runCase(
      harness,
      {
        functions: [
          {
            name: 'lookUp',
            handler: () => {
              started.resolve();
              return release.promise;
            },
          },
        ],
        rendererFunctions: [timeZone],
      },
      async ({ server, client, transport, connections }) => {
        const severLink = required(server.severLink, 'severLink');
        const restoreLink = required(server.restoreLink, 'restoreLink');
        const lookUp = client.callAgentFunction('fn', { call: 'lookUp' });
        await started.promise;
        await severLink(transport);
        release.resolve('found');
        const zone = connections[0]!.callRendererFunction('getTimeZone', {}, callOf('tz'));
        await restoreLink(transport);
        await expect(lookUp).resolves.toBe('found');
        await expect(zone).resolves.toBe('Europe/Berlin');
        expect(connections).toHaveLength(1);
      },
    );
  },
];

const resetRejects: FunctionCallCase = [
  'resume',
  'rejects the calls of a connection that is reset with CONNECTION_CLOSED, in both directions',
  async (harness) => {
    const started = createDeferred();
    const release = createDeferred();
    try {
      await runCase(
        harness,
        {
          functions: [
            {
              name: 'wait',
              handler: () => {
                started.resolve();
                return release.promise;
              },
            },
          ],
          rendererFunctions: [timeZone],
          // Without snapshots: with them the host resumes the session, and nothing is reset.
          server: { replayBufferEvents: 5, snapshots: false },
        },
        async ({ server, client, transport, connections, until }) => {
          const severLink = required(server.severLink, 'severLink');
          const restoreLink = required(server.restoreLink, 'restoreLink');
          // Observed at once: each may reject before the test looks at it.
          const waiting = failure(client.callAgentFunction('fn', { call: 'wait' }));
          await started.promise;
          await severLink(transport);
          const first = connections[0]!;
          const zone = failure(first.callRendererFunction('getTimeZone', {}, callOf('tz')));
          // More than the replay log keeps: the client cannot resume and is reset.
          for (let index = 0; index < 20; index++) first.send(note(`/filler/${index}`, index));
          await restoreLink(transport);
          await until(() => connections.length === 2);
          expect((await waiting).code).toBe('CONNECTION_CLOSED');
          expect((await zone).code).toBe('CONNECTION_CLOSED');
        },
      );
    } finally {
      release.resolve();
    }
  },
];

const v10ActionsAndErrors: FunctionCallCase = [
  undefined,
  "carries actions and errors in v1.0's shape on the v1.0 connection: the agent gets the action's userMessage and a v1.0-only error (UNALLOWED_CHILD with a path)",
  async (harness) => {
    const actions: unknown[] = [];
    const errors: unknown[] = [];
    const sent: unknown[] = [];
    await runCase(
      harness,
      {
        onConnect(connection) {
          connection.send(createV10ActionSurface('v1', 'Book it'));
        },
        onAction: (_connection, action) => void actions.push(action),
        onError: (_connection, error) => void errors.push(error),
      },
      async ({ client, until }) => {
        client.subscribe((event) => {
          if (event.type === 'sent') sent.push(event.message);
        });
        await waitForClient(client, () => client.processor.getSurface('v1') !== undefined, 'v1');
        await client.dispatchAction('v1', 'root');
        await until(() => actions.length === 1);
        expect(sent[0]).toMatchObject({ version: FUNCTION_CALL_VERSION });
        expect(actions[0]).toMatchObject({
          name: 'book',
          surfaceId: 'v1',
          sourceComponentId: 'root',
          userMessage: 'Book it',
        });
        const error = { code: 'UNALLOWED_CHILD', surfaceId: 'v1', path: '/c/1', message: 'No.' };
        await client.send({ version: FUNCTION_CALL_VERSION, error } as unknown as ClientMessage);
        await until(() => errors.length === 1);
        expect(errors[0]).toEqual(error);
      },
    );
  },
];

const CASES: readonly FunctionCallCase[] = [
  v10ActionsAndErrors,
  answered,
  timedOut,
  refused,
  unknownAndInvalid,
  executionError,
  retransmitted,
  acrossReconnect,
  resetRejects,
];

/**
 * Registers the function-call conformance tests under `describe(name)`, run against servers the
 * harness starts (the harness of {@link describeTransportConformance}).
 */
export function describeFunctionCallConformance(
  name: string,
  harness: TransportConformanceHarness,
): void {
  describe(`function-call conformance: ${name}`, () => {
    for (const [capability, title, body] of CASES) {
      if (capability === undefined) it(title, () => body(harness));
      else if (harness.capabilities[capability])
        it(`[${capability}] ${title}`, () => body(harness));
      else it.skip(`[not run: ${name} does not declare "${capability}"] ${title}`, () => {});
    }
  });
}
