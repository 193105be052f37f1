/**
 * The AG-UI endpoint behind `createAgUiServer`'s route: reads a run's request, queues it behind
 * the thread's earlier runs, opens or resumes the thread's connection on the session host and
 * starts the run's stream (`run.ts`). It keeps what this node knows of its threads.
 */
import { A2uiError, isRecord } from '@a2ui-ts/core';
import {
  checkClientMessage,
  checkMetadata,
  checkRequestDepth,
  defaultPrincipalKey,
  LinkSet,
  readJsonRequest,
  type SessionHost,
  type TurnResult,
} from '@a2ui-ts/core/host';
import { type BaseEvent, EventType, type RunAgentInput } from '@ag-ui/core';
import type { Context } from 'hono';
import { AGUI_CARRIED_VERSIONS, CUSTOM_EVENTS, FORWARDED_PROPS } from '../protocol/constants.js';
import {
  AGUI_SERVER_DEFAULTS,
  type AgUiServerOptions,
  type AgUiServerStats,
} from './agui-server-options.js';
import { type AttachPoint, isContinuation, Run } from './run.js';
import { RunHold, RunHolds } from './run-hold.js';
import { parseRunAgentInput, type RunRequest, readRunRequest } from './run-input.js';
import { httpError, metadataRefusal, streamResponse } from './run-response.js';
import { RunStream, type RunStreamEnd } from './run-stream.js';
import { checkRunVersion } from './run-versions.js';
import type { AgUiOutputMode } from './surface-emitter.js';
import { threadConnectionId } from './thread-key.js';
import { ThreadState } from './thread-state.js';

/** The runs and threads of one AG-UI server, on its session host. */
export class AgUiEndpoint {
  readonly host: SessionHost;
  readonly mode: AgUiOutputMode;
  readonly options: AgUiServerOptions;
  readonly maxRunWaitMs: number;
  readonly maxBufferedBytes: number;
  readonly maxClientMessageBytes: number;
  readonly principalKey: (principal: unknown) => unknown;
  readonly bodyLimits: { maxBytes: number; timeoutMs: number; host: SessionHost };
  /** What this node knows of each thread it runs, by connection id. */
  readonly threads = new Map<string, ThreadState>();
  /** Per thread, the end of the last run queued: runs of one thread run one after another. */
  readonly chains = new Map<string, Promise<void>>();
  /** The runs streaming now; one keep-alive timer for all, so an idle server holds none. */
  readonly streams: LinkSet<RunStream>;
  /** Waiting runs held open, by thread: the thread's next request releases its hold. */
  readonly holds = new RunHolds();

  /** `options` as `createAgUiServer` got them, `host` its session host, `mode` resolved. */
  constructor(options: AgUiServerOptions, host: SessionHost, mode: AgUiOutputMode) {
    const defaults = AGUI_SERVER_DEFAULTS;
    this.options = options;
    this.host = host;
    this.mode = mode;
    this.maxRunWaitMs = options.maxRunWaitMs ?? defaults.maxRunWaitMs;
    this.maxBufferedBytes = options.maxBufferedBytes ?? defaults.maxBufferedBytes;
    this.maxClientMessageBytes = options.maxClientMessageBytes ?? defaults.maxClientMessageBytes;
    this.principalKey = options.principalKey ?? defaultPrincipalKey;
    this.bodyLimits = {
      maxBytes: options.maxRequestBytes ?? defaults.maxRequestBytes,
      timeoutMs: options.bodyTimeoutMs ?? defaults.bodyTimeoutMs,
      host,
    };
    this.streams = new LinkSet<RunStream>(
      options.keepAliveIntervalMs ?? defaults.keepAliveIntervalMs,
    );
  }

  /** Answers `POST {basePath}`: one run, after the thread's earlier runs ended. */
  async post(c: Context): Promise<Response> {
    const { options, bodyLimits, principalKey, holds, chains } = this;
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
      return await this.startRun(c, principal, threadId, input, done);
    } catch (error) {
      done();
      return httpError(c, error);
    }
  }

  /**
   * Opens the thread and starts its run. Resolves with the response once the stream is started;
   * refusals before that reject (an HTTP error). The run goes on in the background.
   */
  async startRun(
    c: Context,
    principal: unknown,
    threadId: string,
    input: RunAgentInput,
    done: () => void,
  ): Promise<Response> {
    const { host, mode, options, maxRunWaitMs, maxBufferedBytes, threads, streams, holds } = this;
    const known = threads.get(threadId);
    const request = readRunRequest(input, known ?? new ThreadState());
    this.checkClientMessageLimits(request);
    // `forwardedProps.a2uiVersions`; sharing none is a 406 before the stream starts.
    const negotiated = host.negotiate(request.offeredVersions, { carried: AGUI_CARRIED_VERSIONS });
    checkRunVersion(request, negotiated?.version);
    if (request.disconnect) return this.disconnectRun(c, principal, threadId, input, done);

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
      copilotKitCatalogIds:
        (options.catalogIds ?? AGUI_SERVER_DEFAULTS.catalogIds) === 'copilotkit',
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
              await run.attach(this.adoptThread(connectionId), { lastSeq: 0, reset: continued });
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
      const thread = known ?? this.adoptThread(threadId);
      run.checkSurface(thread);
      const from = await this.resumePoint(
        principal,
        threadId,
        thread,
        request,
        known !== undefined,
      );
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
  }

  /**
   * Where a run on a live thread starts: after the `a2uiSeq` the client's state carries, when
   * this node can place it and the replay log still holds what follows (the client confirmed it
   * holds everything through it, so that much is acknowledged and leaves the log); else after
   * the last message sent, every surface whole for a client whose seq could not be placed.
   * `undefined` when the thread cannot go on (its log lost what the client was never sent).
   */
  async resumePoint(
    principal: unknown,
    threadId: string,
    thread: ThreadState,
    request: RunRequest,
    known: boolean,
  ): Promise<AttachPoint | undefined> {
    const { host } = this;
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
  }

  /** A fresh state for a connection just created; it is forgotten when the connection ends. */
  adoptThread(connectionId: string): ThreadState {
    const { host, threads } = this;
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
  }

  /** Refuses a client message above `maxClientMessageBytes` before anything starts. */
  checkClientMessageLimits(request: RunRequest): void {
    const { options, maxClientMessageBytes } = this;
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
  }

  /** A run that ends the thread (`forwardedProps.a2uiDisconnect`). */
  async disconnectRun(
    c: Context,
    principal: unknown,
    threadId: string,
    input: RunAgentInput,
    done: () => void,
  ): Promise<Response> {
    const { host, maxBufferedBytes, threads } = this;
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
  }

  /** The host's counters and the runs'. */
  stats(): AgUiServerStats {
    return {
      ...this.host.stats(),
      runs: this.streams.size,
      threads: this.threads.size,
      keepAliveTimer: this.streams.ticking,
    };
  }

  /** Ends every thread (agents see `server-closed`) and every run. */
  async close(): Promise<void> {
    await this.host.close();
    for (const stream of this.streams)
      stream.fail('CONNECTION_CLOSED', 'The server is shutting down.');
  }
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
