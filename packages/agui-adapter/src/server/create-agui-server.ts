/**
 * The server binding (ARCHITECTURE §4 "AG-UI"): a Web-standard Hono app with the AG-UI `POST`
 * endpoint. Each request is one run and one agent turn; a thread is one A2UI session whose
 * surfaces live on across runs. The binding holds the route, the run's event stream (its link)
 * and the codec (`run-input.ts`, `surface-emitter.ts`); every session rule — principals, caps,
 * grace, validation, idempotency, turns, host tool calls — is core's `SessionHost`.
 *
 * A run: authenticate, read and validate `RunAgentInput`, open the thread's connection
 * (`host.open` with an id derived from the principal and `threadId`), attach the run's sink for
 * the run's duration (`host.connect` from the `a2uiSeq` the client's state carries — what it
 * says it holds, acknowledged then — so what it missed of a cut run and what the agent sent
 * between runs come first), deliver tool results, user input and the client message with
 * `awaitTurn`, then `RUN_FINISHED` once — or one `RUN_ERROR`.
 */
import {
  A2uiError,
  COPILOTKIT_CATALOG_IDS,
  getFunctionCallKind,
  type HostToolCall,
  isRecord,
  type ServerMessage,
  type ValidationIssue,
} from '@a2ui-ts/core';
import {
  type BindingSessionHostOptions,
  checkClientMessage,
  checkMetadata,
  checkRequestDepth,
  createBindingSessionHost,
  DEFAULT_BODY_TIMEOUT_MS,
  defaultPrincipalKey,
  type HostLink,
  LinkSet,
  type ReplayEntry,
  readJsonRequest,
  SESSION_HOST_DEFAULTS,
  type SessionHost,
  type SessionHostStats,
  type SessionSink,
  type TurnResult,
  toHttpError,
} from '@a2ui-ts/core/host';
import { type BaseEvent, EventType, type RunAgentInput } from '@ag-ui/core';
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import {
  AGUI_CARRIED_VERSIONS,
  CUSTOM_EVENTS,
  FORWARDED_PROPS,
  STATE_SEQ_KEY,
  STATE_SURFACES_KEY,
  STATE_VERSION_KEY,
} from '../protocol/constants.js';
import { RunHold, RunHolds } from './run-hold.js';
import { parseRunAgentInput, type RunRequest, readRunRequest } from './run-input.js';
import { RunStream, type RunStreamEnd } from './run-stream.js';
import {
  asV09,
  checkRunVersion,
  clientMessageOf,
  functionCallEvents,
  noteSurfaceVersion,
  operationsWriter,
} from './run-versions.js';
import {
  type AgUiOutputMode,
  createSurfaceEmitter,
  type SurfaceEmitter,
} from './surface-emitter.js';
import { threadConnectionId } from './thread-key.js';
import { ThreadState } from './thread-state.js';

/** CORS settings: the options of Hono's `cors()` middleware. */
export type AgUiCorsOptions = NonNullable<Parameters<typeof cors>[0]>;

/**
 * Options of {@link createAgUiServer}: the session host's (agent, `authenticate`, caps, grace,
 * bounds — see `SessionHostOptions` in `@a2ui-ts/core`) and the binding's own. Durations in
 * milliseconds, sizes in bytes.
 */
export interface AgUiServerOptions extends BindingSessionHostOptions {
  /**
   * How surfaces travel: `activity` (what CopilotKit and `@ag-ui/a2ui-middleware` render),
   * `state` (`state.surfaces`, for custom frontends and `connectAgUi`), or `tool-result` (a tool
   * result per surface, for hosts that run the A2UI middleware, kept in the history).
   * @default 'activity'
   */
  mode?: AgUiOutputMode;
  /**
   * Path of the endpoint when the app is served on its own. To mount under a path of another app,
   * leave it empty and use `parent.route('/agent', app)`.
   * @default ''
   */
  basePath?: string;
  /**
   * How long a thread lives without a run before its agent's `onDisconnect('grace-expired')`; a
   * later run on it starts a new thread. (The session host's `reconnectGraceMs`.)
   * @default 1800000 (30 minutes)
   */
  reconnectGraceMs?: number;
  /**
   * `activity` mode: how many bytes of appended messages a surface's activity message takes before
   * it is replaced by a compact snapshot of the surface (so a client never re-reads an ever
   * growing list). `Infinity` keeps every message as sent.
   * @default the larger of the surface's last snapshot and 16 KiB (the list stays within twice
   *   the surface, plus 16 KiB)
   */
  compactActivityAfterBytes?: number;
  /**
   * How the spec's v0.9 catalogs are named in what the client receives. `'copilotkit'` names them
   * as `@copilotkit/a2ui-renderer` (1.74) registers them (`…/v0_9/basic_catalog.json`,
   * `…/catalogs/minimal/minimal_catalog.json`; core's `COPILOTKIT_CATALOG_IDS`), without which
   * stock CopilotKit draws nothing; `'spec'` keeps the spec's ids. Other catalogs are unchanged.
   * Capabilities naming either spelling are understood whatever this says.
   * @default 'spec'
   */
  catalogIds?: 'spec' | 'copilotkit';
  /** Interval of the `: keepalive` comment on a silent run. @default 15000 */
  keepAliveIntervalMs?: number;
  /**
   * Longest a waiting run (`forwardedProps.a2uiWait`: a long poll, what `connectAgUi`'s
   * `longPoll` sends) stays open after its turns, streaming what the agent sends meanwhile; the
   * thread's next request ends it sooner. Keep it below the idle timeout of proxies on the way.
   * 0 answers waiting runs like any other.
   * @default 25000
   */
  maxRunWaitMs?: number;
  /** Largest request body (it echoes the client's state). Larger ones get HTTP 413. @default 8388608 */
  maxRequestBytes?: number;
  /** Deadline for reading one request body; a slower one gets HTTP 408. @default 10000 */
  bodyTimeoutMs?: number;
  /** Bytes a run's client has not read yet; above it the run is dropped. @default 16777216 */
  maxBufferedBytes?: number;
  /** Cross-origin access. Without it no CORS headers are sent. @default undefined */
  cors?: AgUiCorsOptions;
}

/** Defaults of {@link AgUiServerOptions}, in one place. */
export const AGUI_SERVER_DEFAULTS = {
  ...SESSION_HOST_DEFAULTS,
  mode: 'activity',
  catalogIds: 'spec',
  basePath: '',
  reconnectGraceMs: 1_800_000,
  keepAliveIntervalMs: 15_000,
  maxRunWaitMs: 25_000,
  maxRequestBytes: 8_388_608,
  bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
  maxBufferedBytes: 16_777_216,
} as const;

/** Counters for monitoring and leak tests: the session host's, and the runs'. */
export interface AgUiServerStats extends SessionHostStats {
  /** Runs streaming now. */
  runs: number;
  /** Threads whose state this node keeps. */
  threads: number;
  /** Whether the shared keep-alive timer runs (only while runs stream). */
  keepAliveTimer: boolean;
}

/** The Hono app returned by {@link createAgUiServer}, with its host and lifecycle. */
export type AgUiServer = Hono & {
  /** The session host behind the endpoint. */
  readonly host: SessionHost;
  readonly mode: AgUiOutputMode;
  stats(): AgUiServerStats;
  /** Ends every thread (agents see `server-closed`) and every run; later runs get 503. */
  close(): Promise<void>;
};

/** Response headers of a run (digest `ag-ui.md` §3.8). */
const STREAM_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-cache, no-transform',
  // Reverse proxies (nginx) must not buffer the stream.
  'X-Accel-Buffering': 'no',
  // Streams at once on Node (the adapter otherwise probes the body for a Content-Length first).
  'Transfer-Encoding': 'chunked',
};

/**
 * Creates the AG-UI server: a Hono app answering `POST {basePath}` with a run, mountable in any
 * Hono app and servable by any Web-standard runtime (`app.fetch(request)`).
 *
 * Refusals before the stream starts are HTTP errors with a JSON body `{"error": {code, message,
 * path?, issues?}}` (`docs/errors.md`): 400 `VALIDATION_FAILED` / `INVALID_JSON` (not a
 * `RunAgentInput`, an invalid action, an action on an unknown surface), 401/403, 413
 * (`MESSAGE_TOO_LARGE`: the body, or the action above `maxClientMessageBytes`), 415, 408, 503
 * (`LIMIT_EXCEEDED` with `Retry-After`, or shutting down). Once streaming, a failure is one
 * `RUN_ERROR {code, message}`.
 *
 * @param options - the agent, the output mode, limits and hooks; see {@link AgUiServerOptions}
 * @returns the app, with `host`, `stats()` and `close()`
 *
 * @example
 * ```ts
 * const agui = createAgUiServer({ agent, mode: 'activity' });
 * const app = new Hono().route('/agent', agui); // POST /agent: an AG-UI HttpAgent's url
 * ```
 */
export function createAgUiServer(options: AgUiServerOptions): AgUiServer {
  const defaults = AGUI_SERVER_DEFAULTS;
  const mode: AgUiOutputMode = options.mode ?? defaults.mode;
  const keepAliveIntervalMs = options.keepAliveIntervalMs ?? defaults.keepAliveIntervalMs;
  const maxRunWaitMs = options.maxRunWaitMs ?? defaults.maxRunWaitMs;
  const maxRequestBytes = options.maxRequestBytes ?? defaults.maxRequestBytes;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? defaults.bodyTimeoutMs;
  const maxBufferedBytes = options.maxBufferedBytes ?? defaults.maxBufferedBytes;
  const maxClientMessageBytes = options.maxClientMessageBytes ?? defaults.maxClientMessageBytes;
  const principalKey = options.principalKey ?? defaultPrincipalKey;
  const host = createBindingSessionHost({
    ...options,
    reconnectGraceMs: options.reconnectGraceMs ?? defaults.reconnectGraceMs,
    // A thread's state carries its own snapshot (`STATE_SNAPSHOT`): a run that finds the log no
    // longer holding what its client missed sends that, so the host's a2uiSnapshot entry is off.
    snapshots: false,
  });
  const bodyLimits = { maxBytes: maxRequestBytes, timeoutMs: bodyTimeoutMs, host };

  const threads = new Map<string, ThreadState>();
  /** Per thread, the end of the last run queued: runs of one thread run one after another. */
  const chains = new Map<string, Promise<void>>();
  // One keep-alive timer for all runs, so an idle server holds no timer at all.
  const streams = new LinkSet<RunStream>(keepAliveIntervalMs);
  const holds = new RunHolds();

  const app =
    (options.basePath ?? defaults.basePath) ? new Hono().basePath(options.basePath!) : new Hono();
  if (options.cors) app.use('*', cors(options.cors));

  app.post('/', async (c) => {
    const read = await readJsonRequest(c.req.raw, { ...bodyLimits, signal: c.req.raw.signal });
    if (!read.ok) return httpError(c, read.refusal);
    const { payload: parsed, principal } = read;
    // Before anything walks it (the schema, the digest of tools, context and state, the agent).
    const tooDeep = checkRequestDepth(parsed, options);
    if (tooDeep)
      return httpError(
        c,
        new A2uiError('VALIDATION_FAILED', tooDeep.message, { path: tooDeep.path }),
      );
    let input: RunAgentInput;
    try {
      input = parseRunAgentInput(parsed);
    } catch (error) {
      return httpError(c, error);
    }
    const threadId = await threadConnectionId(
      principal === undefined ? undefined : principalKey(principal),
      input.threadId,
    );
    // The client wants its thread: a run held open for updates ends now, so this one can start.
    holds.release(threadId);
    if (isRecord(input.forwardedProps) && input.forwardedProps[FORWARDED_PROPS.release] === true)
      return c.body(null, 204);
    // Runs of one thread take turns; a run waits for the one before to end.
    const previous = chains.get(threadId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    chains.set(threadId, tail);
    const done = () => {
      release();
      if (chains.get(threadId) === tail) chains.delete(threadId);
    };
    const waited = await waitUnlessAborted(previous, c.req.raw.signal);
    if (!waited) {
      done();
      return httpError(c, new A2uiError('ABORTED', 'The client went away.'));
    }
    try {
      return await startRun(c, principal, threadId, input, done);
    } catch (error) {
      done();
      return httpError(c, error);
    }
  });

  app.all('/', (c) =>
    c.json({ error: { code: 'METHOD_NOT_ALLOWED', message: 'Use POST.' } }, 405, { Allow: 'POST' }),
  );

  /**
   * Opens the thread and starts its run. Resolves with the response once the stream is started;
   * refusals before that reject (an HTTP error). The run goes on in the background.
   */
  const startRun = async (
    c: Context,
    principal: unknown,
    threadId: string,
    input: RunAgentInput,
    done: () => void,
  ): Promise<Response> => {
    const known = threads.get(threadId);
    const request = readRunRequest(input, known ?? new ThreadState());
    checkClientMessageLimits(request);
    // `forwardedProps.a2uiVersions`; sharing none is a 406 before the stream starts.
    const negotiated = host.negotiate(request.offeredVersions, { carried: AGUI_CARRIED_VERSIONS });
    checkRunVersion(request, negotiated?.version);
    if (request.disconnect) return disconnectRun(c, principal, threadId, input, done);

    const controller = new AbortController();
    const stream = new RunStream({
      accept: c.req.header('accept'),
      maxBufferedBytes,
      onEnd: (end: RunStreamEnd) => {
        streams.delete(stream);
        if (end !== 'finished' && end !== 'errored') controller.abort();
      },
    });
    c.req.raw.signal.addEventListener('abort', () => stream.abort(), { once: true });
    stream.start(input.threadId, input.runId);
    const hold = request.wait && maxRunWaitMs > 0 ? new RunHold(maxRunWaitMs) : undefined;
    const run = new Run({
      host,
      mode,
      principal,
      threadId,
      input,
      request,
      stream,
      controller,
      compactAfterBytes: options.compactActivityAfterBytes,
      copilotKitCatalogIds: (options.catalogIds ?? defaults.catalogIds) === 'copilotkit',
      hold,
      a2uiVersion: negotiated?.version,
    });

    // Before the stream is handed out, everything that refuses with an HTTP status has run.
    /**
     * Opens the thread's connection; a new one gets the run attached before its `onConnect`
     * turn, which the run then waits for (without holding the response back).
     */
    const openThread = (reset: boolean) =>
      new Promise<{ created: boolean; onConnect?: Promise<TurnResult | undefined> }>(
        (resolve, reject) => {
          let onConnect: Promise<TurnResult | undefined> | undefined;
          const opened = host.open({
            principal,
            id: threadId,
            awaitTurn: true,
            signal: controller.signal,
            protocolVersions: negotiated?.versions,
            onCreated: async (connectionId) => {
              const continued = reset || known !== undefined || isContinuation(request, mode);
              await run.attach(adoptThread(connectionId), { lastSeq: 0, reset: continued });
              resolve({ created: true, onConnect });
            },
          });
          onConnect = opened.then(
            (result) => result.turn,
            () => undefined,
          );
          opened.then((result) => {
            if (!result.created) resolve({ created: false });
          }, reject);
        },
      );
    let opened = await openThread(false);
    if (!opened.created) {
      const thread = known ?? adoptThread(threadId);
      run.checkSurface(thread);
      const from = await resumePoint(principal, threadId, thread, request, known !== undefined);
      if (from) await run.attach(thread, from);
      if (!from || run.replaced) {
        // What this client missed is no longer kept: the thread starts over, with a fresh onConnect.
        threads.delete(threadId);
        host.session(threadId)?.close('reset');
        opened = await openThread(true);
      }
    }
    streams.add(stream);
    // Registered before the response goes out: a release sent once the client has it finds it.
    const forgetHold = hold ? holds.add(threadId, hold) : () => {};
    void run
      .execute(opened.onConnect)
      .catch((error: unknown) => run.fail(error))
      .finally(() => {
        forgetHold();
        done();
      });
    return streamResponse(stream);
  };

  /**
   * Where a run on a live thread starts: after the `a2uiSeq` the client's state carries, when
   * this node can place it and the replay log still holds what follows (the client confirmed it
   * holds everything through it, so that much is acknowledged and leaves the log); else after
   * the last message sent, every surface whole for a client whose seq could not be placed.
   * `undefined` when the thread cannot go on (its log lost what the client was never sent).
   */
  const resumePoint = async (
    principal: unknown,
    threadId: string,
    thread: ThreadState,
    request: RunRequest,
    known: boolean,
  ): Promise<AttachPoint | undefined> => {
    const clientSeq = request.clientSeq;
    const delivered = thread.deliveredSeq;
    if (
      known &&
      clientSeq !== undefined &&
      clientSeq <= delivered &&
      clientSeq >= thread.floorSeq
    ) {
      const missed = await host.read(threadId, { principal, afterSeq: clientSeq, limit: 1 });
      if (missed.ok) {
        if (clientSeq > 0)
          await host.acknowledge(threadId, { principal, seq: clientSeq }).catch(() => {});
        return { lastSeq: clientSeq, reset: false, resumeFrom: clientSeq };
      }
    }
    const live = await host.read(threadId, { principal, afterSeq: delivered, limit: 1 });
    if (!live.ok) return undefined;
    return {
      lastSeq: delivered,
      reset: false,
      whole: known && clientSeq !== undefined && clientSeq !== delivered,
    };
  };

  /** A fresh state for a connection just created; it is forgotten when the connection ends. */
  const adoptThread = (connectionId: string): ThreadState => {
    const thread = new ThreadState();
    threads.set(connectionId, thread);
    host.session(connectionId)?.signal.addEventListener(
      'abort',
      () => {
        if (threads.get(connectionId) === thread) threads.delete(connectionId);
      },
      { once: true },
    );
    return thread;
  };

  /** Refuses a client message above `maxClientMessageBytes` before anything starts. */
  const checkClientMessageLimits = (request: RunRequest): void => {
    if (!request.clientMessage) {
      // A run without a client message still carries metadata (capabilities, data models).
      const checked = checkMetadata(request.metadata, options);
      if (!checked.ok) throw metadataRefusal(checked.issues);
      return;
    }
    const bytes =
      JSON.stringify(request.clientMessage.body ?? null).length +
      (request.metadata ? JSON.stringify(request.metadata).length : 0);
    if (bytes > maxClientMessageBytes) {
      throw new A2uiError(
        'MESSAGE_TOO_LARGE',
        `The client message is ${bytes} bytes; at most ${maxClientMessageBytes} are accepted.`,
        { data: { maxClientMessageBytes }, path: request.clientMessagePath },
      );
    }
    // A v1.0 message is checked with the negotiated version (`checkRunVersion`).
    if (request.clientMessage.version !== 'v0.9') {
      const checked = checkMetadata(request.metadata, options, bytes);
      if (!checked.ok) throw metadataRefusal(checked.issues);
      return;
    }
    const check = checkClientMessage(
      request.clientMessage.kind,
      request.clientMessage.body,
      request.metadata,
      options,
      bytes,
    );
    if (!check.ok) {
      const issue = check.issues[0]!;
      if (issue.path.startsWith('/metadata')) throw metadataRefusal(check.issues);
      throw new A2uiError('VALIDATION_FAILED', issue.message, {
        path: `${request.clientMessagePath ?? ''}${issue.path.replace(/^\/(action|error)/, '')}`,
        data: { issues: [...check.issues] },
      });
    }
  };

  /** A run that ends the thread (`forwardedProps.a2uiDisconnect`). */
  const disconnectRun = async (
    c: Context,
    principal: unknown,
    threadId: string,
    input: RunAgentInput,
    done: () => void,
  ): Promise<Response> => {
    try {
      await host.disconnect(threadId, { principal });
    } catch (error) {
      // An unknown thread is already gone; anything else is a refusal.
      if (!(A2uiError.isInstance(error) && error.code === 'CONNECTION_CLOSED')) throw error;
    }
    threads.delete(threadId);
    const stream = new RunStream({
      accept: c.req.header('accept'),
      maxBufferedBytes,
      onEnd: () => {},
    });
    stream.start(input.threadId, input.runId);
    stream.emit({
      type: EventType.CUSTOM,
      name: CUSTOM_EVENTS.closed,
      value: { reason: 'client-closed' },
    } as BaseEvent);
    stream.finish(input.threadId, input.runId);
    done();
    return streamResponse(stream);
  };

  return Object.assign(app, {
    host,
    mode,
    stats(): AgUiServerStats {
      return {
        ...host.stats(),
        runs: streams.size,
        threads: threads.size,
        keepAliveTimer: streams.ticking,
      };
    },
    async close(): Promise<void> {
      await host.close();
      for (const stream of streams)
        stream.fail('CONNECTION_CLOSED', 'The server is shutting down.');
    },
  });
}

/** True when a request continues a thread the client already had (so a new one is a reset). */
function isContinuation(request: RunRequest, mode: AgUiOutputMode): boolean {
  if (request.clientMessage || request.toolResults.length > 0) return true;
  // A client that was sent messages of this thread (a server restart lost it): in every mode.
  if (request.clientSeq !== undefined && request.clientSeq > 0) return true;
  if (mode !== 'state') return false;
  const surfaces = isRecord(request.input.state)
    ? request.input.state[STATE_SURFACES_KEY]
    : undefined;
  return isRecord(surfaces) && Object.keys(surfaces).length > 0;
}

/** Where a run binds to its thread's connection. */
interface AttachPoint {
  /** The messages after this `seq` are delivered to the run. */
  lastSeq: number;
  /** The thread is new although the client continued an old one. */
  reset: boolean;
  /** The client's `a2uiSeq`, when the run resumes from it. */
  resumeFrom?: number;
  /** Every surface goes whole (the client's seq could not be placed). */
  whole?: boolean;
}

interface RunOptions {
  host: SessionHost;
  mode: AgUiOutputMode;
  principal: unknown;
  threadId: string;
  input: RunAgentInput;
  request: RunRequest;
  stream: RunStream;
  controller: AbortController;
  compactAfterBytes: number | undefined;
  /** Rename the spec catalogs in `createSurface` as CopilotKit registers them. */
  copilotKitCatalogIds: boolean;
  /** A waiting run's hold: the run stays open after its turns until it ends. */
  hold: RunHold | undefined;
  /** The negotiated version, answered in state (`a2uiVersion`); none without an offer. */
  a2uiVersion: string | undefined;
}

/** One run: its sink on the thread's connection, and the turns it delivers. */
class Run implements SessionSink {
  readonly #options: RunOptions;
  #thread: ThreadState | undefined;
  #emitter: SurfaceEmitter | undefined;
  #versionAnswered = false;
  #link: HostLink | undefined;
  /** The thread is new although the client continued an old one: its client message is void. */
  #reset = false;
  /** Why the connection ended during the run. */
  #closed: string | undefined;
  /** The host replaced this run's connection (a replay gap). */
  replaced = false;

  constructor(options: RunOptions) {
    this.#options = options;
  }

  /** Refuses an action on a surface the thread does not hold (before the stream is handed out). */
  checkSurface(thread: ThreadState): void {
    const message = this.#options.request.clientMessage;
    if (message?.kind !== 'action' || !isRecord(message.body)) return;
    const surfaceId = message.body.surfaceId;
    if (typeof surfaceId === 'string' && !Object.hasOwn(thread.surfaces, surfaceId)) {
      throw new A2uiError('VALIDATION_FAILED', `Unknown surface "${surfaceId}" in the action.`, {
        path: `${this.#options.request.clientMessagePath}/surfaceId`,
        surfaceId,
      });
    }
  }

  /**
   * Answers the negotiated version in state (`a2uiVersion`), once per run, before any surface:
   * a delta on the client's state object, or a snapshot when it has none. Returns the client's
   * state as it then is, for the surface emitter to build on.
   */
  #answerVersion(): unknown {
    const { input, stream, a2uiVersion } = this.#options;
    if (a2uiVersion === undefined) return input.state;
    const state = isRecord(input.state) ? input.state : undefined;
    const answered = { ...(state ?? {}), [STATE_VERSION_KEY]: a2uiVersion };
    if (this.#versionAnswered || state?.[STATE_VERSION_KEY] === a2uiVersion) return answered;
    this.#versionAnswered = true;
    if (state)
      stream.emit({
        type: EventType.STATE_DELTA,
        delta: [{ op: 'add', path: `/${STATE_VERSION_KEY}`, value: a2uiVersion }],
      } as BaseEvent);
    else stream.emit({ type: EventType.STATE_SNAPSHOT, snapshot: answered } as BaseEvent);
    return answered;
  }

  /** Binds the run to the thread's connection, from `point.lastSeq` on. */
  async attach(thread: ThreadState, point: AttachPoint): Promise<void> {
    const { host, principal, threadId, stream, mode, input, request } = this.#options;
    const { lastSeq, reset } = point;
    this.#link?.detach();
    this.#thread = thread;
    if (reset && !this.#reset) {
      this.#reset = true;
      stream.emit({
        type: EventType.CUSTOM,
        name: CUSTOM_EVENTS.reset,
        value: { reason: 'unknown-connection' },
      } as BaseEvent);
    }
    this.#emitter = createSurfaceEmitter(mode, {
      thread,
      runId: input.runId,
      clientState: this.#answerVersion(),
      resync: request.resync || reset || point.whole === true,
      resumeFrom: reset ? undefined : point.resumeFrom,
      replayUntil: thread.deliveredSeq,
      stampSeq: request.clientSeq === undefined || reset,
      compactAfterBytes: this.#options.compactAfterBytes,
      writeOperations: operationsWriter(thread.v10Surfaces),
      emit: (event) => stream.emit(event),
      emitJson: (json) => stream.emitJson(json),
    });
    this.#emitter.begin();
    this.replaced = false;
    const link = await host.connect({ principal, connectionId: threadId, lastSeq, sink: this });
    this.#link = link;
    if (link.connectionId !== threadId) {
      this.replaced = true;
      link.detach();
      await host.disconnect(link.connectionId, { principal }).catch(() => {});
    }
  }

  // ---- SessionSink ---------------------------------------------------------------------------

  deliver(entry: ReplayEntry): void {
    const thread = this.#thread;
    if (!thread || this.#options.stream.ended) return;
    if (getFunctionCallKind(entry.message) !== undefined) {
      this.#deliverFunctionCall(thread, entry);
      return;
    }
    const message = ownCopy(entry);
    if ('createSurface' in message) noteSurfaceVersion(thread.v10Surfaces, message);
    for (const read of asV09(thread.v09Reader, message, entry.data)) {
      const renamed = this.#options.copilotKitCatalogIds
        ? withCopilotKitCatalogId(read.message)
        : undefined;
      if (renamed) this.#emitter?.deliver(renamed, JSON.stringify(renamed), entry.seq);
      else this.#emitter?.deliver(read.message, read.data, entry.seq);
    }
    if ('deleteSurface' in message) noteSurfaceVersion(thread.v10Surfaces, message);
    thread.deliveredSeq = Math.max(thread.deliveredSeq, entry.seq);
    // `tool-result` carries the surfaces at the run's end: a waiting run ends once the agent's
    // messages of this tick are in.
    const hold = this.#options.hold;
    if (hold && this.#options.mode === 'tool-result') setTimeout(() => hold.release(), 0);
  }

  /**
   * An agent's v1.0 function call: its events (a renderer function is a frontend-tool call the
   * run ends with, as `callRendererFunction` ends the agent's turn), then the seq in state, so
   * the next run does not send it again (a cut run's catch-up does).
   */
  #deliverFunctionCall(thread: ThreadState, entry: ReplayEntry): void {
    const { stream } = this.#options;
    this.#emitter?.flush();
    const toolCallId = functionCallEvents(entry.message, (event) => stream.emit(event));
    if (toolCallId !== undefined) thread.pendingFunctionCalls.add(toolCallId);
    thread.deliveredSeq = Math.max(thread.deliveredSeq, entry.seq);
    if (isRecord(this.#options.input.state) || this.#versionAnswered)
      stream.emit({
        type: EventType.STATE_DELTA,
        delta: [{ op: 'add', path: `/${STATE_SEQ_KEY}`, value: entry.seq }],
      } as BaseEvent);
    // The client runs a frontend tool when the run ends.
    if (toolCallId !== undefined) this.#options.hold?.release();
  }

  deliverToolCall(call: HostToolCall): void {
    const { stream } = this.#options;
    if (stream.ended) return;
    this.#emitter?.flush();
    this.#thread?.pendingToolCalls.add(call.id);
    stream.emit({
      type: EventType.TOOL_CALL_START,
      toolCallId: call.id,
      toolCallName: call.name,
    } as BaseEvent);
    stream.emit({
      type: EventType.TOOL_CALL_ARGS,
      toolCallId: call.id,
      delta: JSON.stringify(call.args ?? {}),
    } as BaseEvent);
    stream.emit({ type: EventType.TOOL_CALL_END, toolCallId: call.id } as BaseEvent);
    // The client runs a frontend tool when the run ends.
    this.#options.hold?.release();
  }

  close(reason: string): void {
    // `reset`: a newer link replaced this one; otherwise the connection ended.
    if (reason !== 'reset') {
      this.#closed = reason;
      this.#options.hold?.release();
    }
  }

  // ---- The run -------------------------------------------------------------------------------

  /** Delivers the run's input, turn after turn, then ends the run. */
  async execute(onConnect: Promise<TurnResult | undefined> | undefined): Promise<void> {
    const { host, principal, threadId, input, request, controller } = this.#options;
    const signal = controller.signal;
    const thread = this.#thread!;
    const turns: Array<TurnResult | undefined> = [];
    if (onConnect) turns.push(await onConnect);
    const context = { principal, awaitTurn: true, signal };
    for (const result of request.toolResults) {
      if (this.#stopped) break;
      thread.pendingToolCalls.delete(result.toolCallId);
      try {
        turns.push((await host.toolResult(threadId, { ...context, result })).turn);
      } catch (error) {
        // The agent stopped waiting for it (its signal aborted): the result answers nothing.
        if (!(A2uiError.isInstance(error) && error.code === 'VALIDATION_FAILED')) throw error;
      }
    }
    const digest = JSON.stringify([request.tools, request.context, request.hostState ?? null]);
    if (!this.#stopped && (request.text !== undefined || digest !== thread.lastInputDigest)) {
      thread.lastInputDigest = digest;
      thread.rememberMessages(request.userMessageIds);
      const agentInput = {
        ...(request.text !== undefined ? { text: request.text } : {}),
        tools: request.tools,
        context: request.context,
        ...(request.hostState ? { state: request.hostState } : {}),
        ...(request.extras ? { extras: request.extras } : {}),
      };
      turns.push(
        (
          await host.input(threadId, {
            ...context,
            input: agentInput,
            metadata: request.metadata,
            requestId: `${input.runId}:input`,
          })
        ).turn,
      );
    }
    for (const call of request.functionCalls) {
      if (this.#stopped || this.#reset) break;
      turns.push(await this.#receiveFunctionCall(thread, call));
    }
    const message = request.clientMessage;
    if (message && !this.#stopped && !this.#reset) {
      if (request.logEventCallId) thread.rememberMessages([request.logEventCallId]);
      const body = clientMessageOf(message);
      const bytes = JSON.stringify(body).length;
      turns.push(
        (
          await host.receive(threadId, {
            ...context,
            message: body,
            metadata: request.metadata,
            requestId: input.runId,
            bytes,
          })
        ).turn,
      );
    }
    const failed = turns.some((turn) => turn?.outcome === 'failed');
    // A waiting run streams what the agent sends until the client needs the thread back.
    if (this.#options.hold && !failed && !this.#stopped) await this.#options.hold.wait(signal);
    this.#finish(failed);
  }

  /**
   * A function-call message of the client, to the session host: a `rendererFunctionResponse`
   * settles the agent's waiting call (its continuation turn is this run's), a `callAgentFunction`
   * runs once per `functionCallId` (a retransmission is answered again, not run again). The
   * request id (the run's, and the call's id) makes a retried run deliver it once.
   */
  async #receiveFunctionCall(
    thread: ThreadState,
    message: Record<string, unknown>,
  ): Promise<TurnResult | undefined> {
    const { host, principal, threadId, input, request, controller } = this.#options;
    const response = message.rendererFunctionResponse as { functionCallId?: unknown } | undefined;
    const call = message.callAgentFunction as { functionCallId?: unknown } | undefined;
    const functionCallId = String(response?.functionCallId ?? call?.functionCallId ?? '');
    thread.pendingFunctionCalls.delete(functionCallId);
    const received = await host.receive(threadId, {
      principal,
      awaitTurn: true,
      signal: controller.signal,
      message: message as never,
      metadata: request.metadata,
      requestId: `${input.runId}:fn:${functionCallId}`,
      bytes: JSON.stringify(message).length,
    });
    return received.turn;
  }

  /** A failure after the stream started: one `RUN_ERROR`. */
  fail(error: unknown): void {
    const { stream } = this.#options;
    this.#emitter?.end();
    this.#detach();
    if (this.#thread) this.#thread.dirty = true;
    const known = A2uiError.isInstance(error)
      ? error
      : new A2uiError('INTERNAL_ERROR', 'The server failed while running the agent.');
    stream.fail(known.code, known.message);
  }

  get #stopped(): boolean {
    return this.#closed !== undefined || this.#options.stream.ended;
  }

  #finish(failed: boolean): void {
    const { stream, input, host, principal, threadId } = this.#options;
    const thread = this.#thread!;
    this.#emitter?.end();
    this.#detach();
    if (stream.ended) {
      // The client went away before the run's end: it may lack what the run carried.
      thread.dirty = true;
      return;
    }
    thread.dirty = false;
    // A client that sends `a2uiSeq` back acknowledges with its next run: until then, the log
    // keeps what this run carried, in case the client never read it.
    if (thread.deliveredSeq > 0 && this.#options.request.clientSeq === undefined)
      void host.acknowledge(threadId, { principal, seq: thread.deliveredSeq }).catch(() => {});
    if (this.#closed !== undefined)
      stream.emit({
        type: EventType.CUSTOM,
        name: CUSTOM_EVENTS.closed,
        value: { reason: this.#closed },
      } as BaseEvent);
    if (failed) stream.fail('INTERNAL_ERROR', 'The agent failed while handling this run.');
    else stream.finish(input.threadId, input.runId);
  }

  #detach(): void {
    this.#link?.detach();
    this.#link = undefined;
  }
}

/**
 * The message of `entry` as the emitters may keep it: the agent's own object may change after
 * `send`, so anything holding objects is a copy parsed from the JSON that was sent; an update of a
 * primitive value (the common case) is read as it is.
 */
function ownCopy(entry: ReplayEntry): ServerMessage {
  const message = entry.message as { updateDataModel?: { value?: unknown } } | undefined;
  const value = message?.updateDataModel?.value;
  if (message?.updateDataModel && (value === null || typeof value !== 'object'))
    return message as ServerMessage;
  return JSON.parse(entry.data) as ServerMessage;
}

/** `message` with its catalog named as CopilotKit names it, or `undefined` when that changes nothing. */
function withCopilotKitCatalogId(message: ServerMessage): ServerMessage | undefined {
  if (!('createSurface' in message)) return undefined;
  const alias = COPILOTKIT_CATALOG_IDS[message.createSurface.catalogId];
  if (alias === undefined) return undefined;
  return { ...message, createSurface: { ...message.createSurface, catalogId: alias } };
}

/** Awaits `promise` unless `signal` aborts first; false when it did. */
async function waitUnlessAborted(promise: Promise<void>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<false>((resolve) => {
    onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise.then(() => true as const), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

/** The refusal of invalid client metadata, pointing into the body (`/forwardedProps/…`). */
function metadataRefusal(issues: readonly ValidationIssue[]): A2uiError {
  const issue = issues[0]!;
  return new A2uiError('VALIDATION_FAILED', issue.message, {
    path: `/forwardedProps${issue.path.replace(/^\/metadata/, '')}`,
    data: { issues: [...issues] },
  });
}

/** The response of a run: its event stream. */
function streamResponse(stream: RunStream): Response {
  return new Response(stream.body, {
    status: 200,
    headers: { ...STREAM_HEADERS, 'Content-Type': stream.contentType },
  });
}

function httpError(c: Context, error: unknown): Response {
  const refusal = toHttpError(error);
  return c.json(refusal.body, refusal.status as 400, refusal.headers);
}
