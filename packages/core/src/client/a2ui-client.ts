/**
 * `A2uiClient` = a `MessageProcessor` + one `ClientTransport` (ARCHITECTURE §2 "Client side").
 */

import { type CheckResult, evaluateChecks } from '../binding/checks.js';
import { type BindingHost, DataContext } from '../binding/data-context.js';
import { findUnknownFunctions } from '../binding/unknown-functions.js';
import type { Catalog } from '../catalog/catalog.js';
import type { CatalogRegistry } from '../catalog/catalog-registry.js';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import type { VersionedCapabilities } from '../catalog/renderer-capabilities.js';
import { A2uiError, toA2uiError } from '../errors/a2ui-error.js';
import { DEFAULT_URL_POLICY, type UrlPolicy } from '../functions/url-policy.js';
import { isFunctionCall, isRecord } from '../protocol/guards.js';
import type {
  ActionMessage,
  ClientError,
  ClientMessage,
  ClientMessageMetadata,
  ErrorMessage,
} from '../protocol/messages.js';
import { rendererDataModelEntry } from '../protocol/renderer-metadata.js';
import { AnsweredCalls, type AnsweredCallsOptions } from '../rpc/answered-calls.js';
import {
  type CallAgentFunctionMessage,
  FUNCTION_CALL_VERSION,
  type FunctionCallRequest,
  type RendererFunctionCallMessage,
} from '../rpc/function-call-messages.js';
import { type FunctionCallOptions, PendingFunctionCalls } from '../rpc/pending-function-calls.js';
import { type RendererFunction, RendererFunctionRegistry } from '../rpc/renderer-functions.js';
import {
  MessageProcessor,
  type ProcessorLimits,
  type ProcessResult,
} from '../state/message-processor.js';
import type { Surface } from '../state/surface.js';
import { clientMessageVersionOf } from '../transport/client-message-version.js';
import type {
  ClientTransport,
  ConnectionStatus,
  TransportEvent,
  TroubleCause,
} from '../transport/client-transport.js';
import { readSessionSnapshot } from '../transport/session-snapshot.js';
import { findJsonViolation } from '../validation/find-depth-violation.js';
import type {
  InternalAgentFunctionResponse,
  InternalCallRendererFunction,
  ProtocolVersion,
} from '../versions/protocol-version.js';
import type { ProtocolVersionRegistry } from '../versions/protocol-version-registry.js';
import { v09 } from '../versions/v0-9.js';
import { ErrorReporter, type ErrorReportingOptions } from './error-reporter.js';
import { readEventAction, resolveEventContext } from './event-action.js';

/** Options of {@link A2uiClient}. */
export interface A2uiClientOptions {
  /** Where server messages come from and client messages go; attach later with `connect`. */
  transport?: ClientTransport;
  /** Catalogs this client renders. @default basic + minimal (`createDefaultCatalogs()`) */
  catalogs?: CatalogRegistry | Iterable<Catalog>;
  /** BCP 47 locale for formatting functions. @default the runtime default */
  locale?: string;
  /** Guards every URL the client opens (and the renderer's URL sinks). @default http/https only */
  urlPolicy?: UrlPolicy;
  /**
   * Opens an allowed URL for `openUrl`. @default `window.open(url, '_blank', 'noopener,noreferrer')`
   * in a browser; elsewhere `openUrl` reports `URL_BLOCKED`.
   */
  openUrl?: (url: string) => void;
  /** Schema-validate inbound messages. @default true */
  validate?: boolean;
  /** Reject updates that leave a surface's component tree broken (`MessageProcessorOptions.strict`). @default false */
  strict?: boolean;
  /** The protocol versions the client reads (`MessageProcessorOptions.protocolVersions`). @default every registered version */
  protocolVersions?: ProtocolVersionRegistry;
  limits?: ProcessorLimits;
  /** How errors are reported back to the agent. */
  errorReporting?: ErrorReportingOptions;
  /**
   * Send full inline catalog definitions in `a2uiClientCapabilities` (only for agents that
   * declared `acceptsInlineCatalogs`). @default false
   */
  includeInlineCatalogs?: boolean;
  /**
   * Functions agents may call with v1.0 `callRendererFunction` (more can be added with
   * `client.rendererFunctions.register`). @default none: every call is refused with
   * `INVALID_FUNCTION_CALL`
   */
  rendererFunctions?: Iterable<RendererFunction>;
  /**
   * How long a user gesture ({@link A2uiClient.noteUserActivation}, or `dispatchAction`) allows
   * one renderer function that `requiresUserActivation`, in milliseconds. @default 5000
   */
  userActivationWindowMs?: number;
  /**
   * Bounds on the answers to `callRendererFunction` remembered so that a call the agent
   * retransmits (same `functionCallId`) is answered again without running twice.
   * @default `{ maxRememberedAnswers: 1000, maxRememberedAnswerBytes: 1048576 }`
   */
  rememberedAnswers?: AnsweredCallsOptions;
}

/** What the client saw or sent, for inspectors and logs. */
export type ClientEvent =
  | { type: 'received'; input: unknown; result: ProcessResult }
  /** Announced as the message is handed to the transport (before delivery is confirmed). */
  | {
      type: 'sent';
      message: ClientMessage | RendererFunctionCallMessage;
      metadata: ClientMessageMetadata;
    }
  | { type: 'status'; status: ConnectionStatus; reason?: string; cause?: TroubleCause }
  | { type: 'reset'; reason?: string };

/** Options of {@link A2uiClient.dispatchAction}. */
export interface DispatchActionOptions {
  /**
   * Data scope of the component instance (template items have their own); ignored when
   * `dataContext` is given. @default "/"
   */
  scope?: string;
  /**
   * The data context to resolve the action in, already built for the instance (a
   * `ComponentBinding`'s `context`). @default `getDataContext(surfaceId, scope)`
   */
  dataContext?: DataContext;
  /**
   * The component's checks as already evaluated (a `ComponentBinding`'s snapshot `validation`,
   * which its subscriptions keep current): not evaluated again. @default evaluated now
   */
  validation?: CheckResult;
  /** The action to run; @default the component's `action` property */
  action?: unknown;
  signal?: AbortSignal;
}

const defaultOpenUrl = (url: string): void => {
  const open = (globalThis as { open?: (url: string, target: string, features: string) => unknown })
    .open;
  if (typeof open !== 'function')
    throw new A2uiError('URL_BLOCKED', 'No way to open URLs in this environment.');
  open(url, '_blank', 'noopener,noreferrer');
};

/**
 * The client side of A2UI: applies server messages, resolves actions at event time and sends
 * them with `a2uiClientCapabilities` (always) and `a2uiClientDataModel` — `a2uiRendererDataModel` on a v1.0 link — (for `sendDataModel`
 * surfaces), and reports validation and expression errors to the agent (de-duplicated,
 * rate-limited). Spec §3, §4, §8.5.
 *
 * @example
 * ```ts
 * const client = new A2uiClient({ transport: connectSseJsonRpc({ url: '/a2ui' }) });
 * client.connect();
 * ```
 */
/**
 * Why a `callAgentFunction` failed when its message did: a call that went out and whose
 * connection then ended (`OUTCOME_UNKNOWN`) can never get its answer — `CONNECTION_CLOSED`,
 * with the send's error as cause (the agent may have run it).
 */
function callSendFailure(error: unknown): A2uiError {
  const failure = toA2uiError(error, 'TRANSPORT_ERROR');
  if (failure.code !== 'OUTCOME_UNKNOWN') return failure;
  return new A2uiError(
    'CONNECTION_CLOSED',
    'The connection ended before the agent answered; the function may have run.',
    { cause: failure, data: { ...failure.data, outcome: 'unknown' } },
  );
}

export class A2uiClient {
  readonly processor: MessageProcessor;
  /** The functions agents may call (v1.0 `callRendererFunction`); register more here. */
  readonly rendererFunctions: RendererFunctionRegistry;
  readonly locale: string | undefined;
  readonly urlPolicy: UrlPolicy;
  readonly #openUrl: (url: string) => void;
  readonly #reporter: ErrorReporter;
  readonly #includeInlineCatalogs: boolean;
  readonly #hosts = new WeakMap<Surface, BindingHost>();
  readonly #listeners = new Set<(event: ClientEvent) => void>();
  readonly #agentCalls = new PendingFunctionCalls();
  readonly #answeredCalls: AnsweredCalls;
  #transport: ClientTransport | undefined;
  #abort: AbortController | undefined;
  #status: ConnectionStatus = 'closed';
  /** Whether the link has been open once (so the transport has negotiated what it will). */
  #opened = false;
  #done: Promise<void> = Promise.resolve();

  constructor(options: A2uiClientOptions = {}) {
    this.processor = new MessageProcessor({
      catalogs: options.catalogs ?? createDefaultCatalogs(),
      validate: options.validate,
      strict: options.strict,
      protocolVersions: options.protocolVersions,
      limits: options.limits,
      maxRememberedErrors: options.errorReporting?.maxRemembered,
    });
    this.locale = options.locale;
    this.urlPolicy = options.urlPolicy ?? DEFAULT_URL_POLICY;
    this.#openUrl = options.openUrl ?? defaultOpenUrl;
    this.#reporter = new ErrorReporter(options.errorReporting);
    this.#includeInlineCatalogs = options.includeInlineCatalogs ?? false;
    this.#transport = options.transport;
    this.rendererFunctions = new RendererFunctionRegistry({
      userActivationWindowMs: options.userActivationWindowMs,
    });
    for (const fn of options.rendererFunctions ?? []) this.rendererFunctions.register(fn);
    this.#answeredCalls = new AnsweredCalls(options.rememberedAnswers);
    this.processor.onFunctionMessage((message) => this.#handleFunctionMessage(message));
    this.processor.onError((error) => this.#reportToAgent(error));
  }

  /** The current link state. */
  get status(): ConnectionStatus {
    return this.#status;
  }

  get transport(): ClientTransport | undefined {
    return this.#transport;
  }

  /**
   * Starts reading `transport` (or the one given at construction). The returned promise settles
   * only when the link has ended for good (closed by either side), so do not `await` it before
   * using the client: follow progress with {@link subscribe}, or wait for a state with
   * {@link until}.
   * @throws A2uiError `CONNECTION_CLOSED` when there is no transport
   */
  connect(transport?: ClientTransport): Promise<void> {
    if (transport) this.#transport = transport;
    const current = this.#transport;
    if (!current) throw new A2uiError('CONNECTION_CLOSED', 'A2uiClient.connect needs a transport.');
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    this.#done = this.#pump(current, abort.signal);
    return this.#done;
  }

  /** Closes the transport and stops reading. Surfaces stay until `reset()`. */
  async close(): Promise<void> {
    this.#abort?.abort();
    this.#agentCalls.failAll(
      new A2uiError('CONNECTION_CLOSED', 'The client closed before the agent answered.'),
    );
    await this.#transport?.close();
    await this.#done.catch(() => {});
    this.#setStatus('closed');
  }

  /** Applies server messages directly (in-process agents, tests, replay). */
  process(input: unknown): ProcessResult {
    const result = this.processor.process(input);
    this.#emit({ type: 'received', input, result });
    return result;
  }

  /**
   * Resolves once `condition()` holds: checked now and after every client event (message applied,
   * message sent, status change). Never polls.
   *
   * @example
   * ```ts
   * await client.until(() => client.processor.getSurface('main')?.components.has('root') ?? false);
   * ```
   * @param options - `signal` stops waiting; `timeoutMs` is the longest wait in milliseconds
   *   (@default no limit)
   * @throws A2uiError `ABORTED` when `signal` aborts, `TIMEOUT` when `timeoutMs` passes first,
   *   `CONNECTION_CLOSED` when the link ends first
   */
  until(
    condition: () => boolean,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const { signal, timeoutMs } = options;
      if (condition()) {
        resolve();
        return;
      }
      const timer =
        timeoutMs === undefined || !Number.isFinite(timeoutMs)
          ? undefined
          : setTimeout(
              () =>
                finish(
                  new A2uiError(
                    'TIMEOUT',
                    `The awaited state was not reached within ${timeoutMs} ms (timeoutMs).`,
                  ),
                ),
              Math.max(0, timeoutMs),
            );
      const finish = (error?: A2uiError) => {
        unsubscribe();
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve();
      };
      const onAbort = () =>
        finish(new A2uiError('ABORTED', 'Stopped waiting: the signal was aborted.'));
      const unsubscribe = this.subscribe((event) => {
        if (condition()) finish();
        else if (event.type === 'status' && event.status === 'closed') {
          finish(
            new A2uiError(
              'CONNECTION_CLOSED',
              'The link ended before the awaited state was reached.',
            ),
          );
        }
      });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Listens to everything the client receives, sends, and its link status. */
  subscribe(listener: (event: ClientEvent) => void): () => void {
    const entry = (event: ClientEvent) => listener(event);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Metadata attached to every outgoing message (§4). */
  getMetadata(): ClientMessageMetadata {
    const metadata: ClientMessageMetadata = {
      a2uiClientCapabilities: this.processor.catalogs.getClientCapabilities({
        includeInlineCatalogs: this.#includeInlineCatalogs,
      }),
    };
    // v1.0 renamed the key to a2uiRendererCapabilities. A renderer speaking several versions
    // sends both keys, each with its own versions (docs/protocol-versions.md "Negotiation").
    const versions = this.processor.catalogs.getRendererCapabilities({
      includeInlineCatalogs: this.#includeInlineCatalogs,
    });
    const v1 = Object.keys(versions).filter((version) => !/^v0\./.test(version));
    if (v1.length > 0) {
      const renderer: VersionedCapabilities = {};
      for (const version of v1) renderer[version] = versions[version]!;
      metadata.a2uiRendererCapabilities = renderer;
    }
    // v1.0 also renamed the data model's key: a v1.0 link carries a2uiRendererDataModel.
    const dataModel = this.processor.getClientDataModel();
    if (dataModel)
      Object.assign(
        metadata,
        rendererDataModelEntry(dataModel.surfaces, this.#transport?.a2uiVersion),
      );
    return metadata;
  }

  /**
   * A data context of `surfaceId` at `scope`, for renderers.
   * @throws A2uiError `SURFACE_NOT_FOUND`
   */
  getDataContext(surfaceId: string, scope = '/'): DataContext {
    return new DataContext(this.getBindingHost(surfaceId), scope);
  }

  /**
   * The binding host of `surfaceId`: its data model, its catalog's functions, the client locale,
   * and error reporting to the agent. One object per surface, stable for the surface's lifetime.
   * @throws A2uiError `SURFACE_NOT_FOUND`
   */
  getBindingHost(surfaceId: string): BindingHost {
    const surface = this.processor.getSurface(surfaceId);
    if (!surface) {
      throw new A2uiError('SURFACE_NOT_FOUND', `Unknown surface "${surfaceId}".`, { surfaceId });
    }
    return this.#host(surface);
  }

  /**
   * Runs the action of `sourceComponentId` as a user gesture (§8.5): an `event` action is resolved
   * in `scope` now, stamped and sent; a `functionCall` action runs locally (it may `openUrl`).
   * Refused while any of the component's checks fails (§8.4). An action that calls a function the
   * surface's catalog does not define is not run at all (nothing is sent): that is an
   * `EXPRESSION_ERROR`, reported to the agent and thrown.
   *
   * @returns `true` when the action ran or was sent, `false` when checks blocked it
   * @throws A2uiError `SURFACE_NOT_FOUND`, `VALIDATION_FAILED` (no usable action),
   *   `EXPRESSION_ERROR` (the action calls an unknown function, or its context resolved to a
   *   non-finite number; nothing is sent), `LIMIT_EXCEEDED` (the resolved context is nested
   *   deeper than `limits.maxDepth`; nothing is sent), transport errors
   */
  async dispatchAction(
    surfaceId: string,
    sourceComponentId: string,
    options: DispatchActionOptions = {},
  ): Promise<boolean> {
    this.rendererFunctions.noteUserActivation();
    const context = options.dataContext ?? this.getDataContext(surfaceId, options.scope);
    const component = this.processor.getSurface(surfaceId)?.components.get(sourceComponentId);
    const action = options.action ?? component?.properties.action;
    // A function call the catalog lacks stops a `functionCall` action; inside an event's context
    // it only empties that value (sent as null, reported once while resolving).
    const call =
      isRecord(action) && isFunctionCall(action.functionCall) ? action.functionCall : undefined;
    const unknown = call ? findUnknownFunctions(call, context.host.functions) : [];
    if (unknown.length > 0) {
      const failure = new A2uiError(
        'EXPRESSION_ERROR',
        `The action of "${sourceComponentId}" calls ${unknown.map((name) => `"${name}"`).join(', ')}, which the catalog of surface "${surfaceId}" does not define; it was not run.`,
        { surfaceId, data: { functions: unknown } },
      );
      context.host.reportError(failure);
      throw failure;
    }
    const validation =
      options.validation ??
      (component ? evaluateChecks(component.properties.checks, context) : undefined);
    if (validation && !validation.isValid) return false;
    const openUrl = (url: string) => {
      const safe = this.urlPolicy.sanitize(url);
      if (safe === undefined)
        throw new A2uiError('URL_BLOCKED', `The URL policy refused ${JSON.stringify(url)}.`);
      this.#openUrl(safe);
    };
    const event = readEventAction(action);
    if (event) {
      const resolved = resolveEventContext(context, event.context, { openUrl });
      // What the server's check (validateClientMessage) would refuse is never sent: a context
      // value nested deeper than the data model may be (literal arrays around a binding), or a
      // number JSON cannot carry (only a function can return one: the data model holds none).
      const { maxDepth } = this.processor.limits;
      const violation = findJsonViolation(resolved, maxDepth + 1);
      if (violation) {
        const tooDeep = violation.keyword === 'maxDepth';
        throw new A2uiError(
          tooDeep ? 'LIMIT_EXCEEDED' : 'EXPRESSION_ERROR',
          `The context of action "${event.name}" of "${sourceComponentId}" ${tooDeep ? `is nested deeper than ${maxDepth} levels (maxDepth)` : 'holds a number JSON cannot carry'}; it was not sent.`,
          { surfaceId, path: `/action/context${violation.path}` },
        );
      }
      // Written in the shape of the version the surface was created in (v1.0 adds userMessage),
      // when the transport carries it.
      const version = this.#carried(this.processor.getSurface(surfaceId)?.protocolVersion ?? v09);
      const resolvedMessage =
        event.userMessage === undefined
          ? undefined
          : context.evaluate(event.userMessage, { openUrl });
      const message = version.encodeAction({
        name: event.name,
        surfaceId,
        sourceComponentId,
        timestamp: new Date().toISOString(),
        context: resolved,
        ...(typeof resolvedMessage === 'string' ? { userMessage: resolvedMessage } : {}),
      }) as unknown as ActionMessage;
      await this.send(message, { signal: options.signal });
      return true;
    }
    if (isRecord(action) && isFunctionCall(action.functionCall)) {
      context.evaluate(action.functionCall, { openUrl });
      return true;
    }
    throw new A2uiError(
      'VALIDATION_FAILED',
      `Component "${sourceComponentId}" has no usable action.`,
      { surfaceId },
    );
  }

  /**
   * Sends a client message with fresh metadata.
   * @throws A2uiError `CONNECTION_CLOSED` without a transport, or the transport's error
   */
  async send(
    message: ClientMessage | RendererFunctionCallMessage,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    const transport = this.#transport;
    if (!transport)
      throw new A2uiError('CONNECTION_CLOSED', 'The client has no transport to send through.');
    const metadata = this.getMetadata();
    // Announced when handed to the transport, so an inspector orders it before the agent's reply.
    this.#emit({ type: 'sent', message, metadata });
    // Transports carry any client message as JSON; their v0.9 parameter type predates v1.0's
    // function-call messages.
    await transport.send(message as ClientMessage, metadata, options);
  }

  /**
   * Says that a user gesture (click, key press) just happened: the next renderer function that
   * `requiresUserActivation` called by the agent within `userActivationWindowMs` may run (and
   * consumes it). `dispatchAction` notes one itself.
   */
  noteUserActivation(): void {
    this.rendererFunctions.noteUserActivation();
  }

  /**
   * Calls a function on the agent (v1.0 `callAgentFunction`) and waits for its
   * `agentFunctionResponse`, correlated by a fresh `functionCallId`.
   *
   * @param surfaceId - The surface the call comes from.
   * @param callFunction - `{call, catalogId?, args?}`.
   * @param options - `timeoutMs` (@default 30000) and `signal`.
   * @returns The response's `value`.
   * @throws A2uiError `FUNCTION_CALL_FAILED` (the agent answered an error: `data.code` is
   *   `UNKNOWN_FUNCTION`, `INVALID_FUNCTION_CALL`, `EXECUTION_ERROR`, …), `TIMEOUT`, `ABORTED`,
   *   `CONNECTION_CLOSED` (no transport, closed first, or the connection was reset — also when
   *   the call went out and the connection ended before the answer: `data.outcome: 'unknown'`),
   *   the transport's error. A call retransmitted with the same `functionCallId` runs once on
   *   the agent.
   *
   * @example
   * ```ts
   * const { valid } = await client.callAgentFunction('form', { call: 'verifyProvider', args: { providerId } });
   * ```
   */
  callAgentFunction(
    surfaceId: string,
    callFunction: FunctionCallRequest,
    options: FunctionCallOptions = {},
  ): Promise<unknown> {
    const refused = this.#functionCallsRefused('callAgentFunction');
    if (refused) return Promise.reject(refused);
    const functionCallId =
      options.functionCallId ?? this.#agentCalls.nextId(`call-${Date.now().toString(36)}`);
    const result = this.#agentCalls.start(functionCallId, callFunction.call, options);
    const message: CallAgentFunctionMessage = {
      version: FUNCTION_CALL_VERSION,
      callAgentFunction: { surfaceId, functionCallId, callFunction },
    };
    this.send(message, { signal: options.signal }).catch((error: unknown) =>
      this.#agentCalls.fail(functionCallId, callSendFailure(error)),
    );
    return result;
  }

  /**
   * Answers a `callRendererFunction` (always, even for `void`) and settles the call an
   * `agentFunctionResponse` names; never throws (a failed answer is the transport's to report).
   */
  #handleFunctionMessage(
    message: InternalCallRendererFunction | InternalAgentFunctionResponse,
  ): void {
    const { functionCallId } = message;
    if (message.kind === 'callRendererFunction') {
      const refused = this.#functionCallsRefused('callRendererFunction');
      if (refused) {
        // The agent broke the negotiated version: tell it in that version's `error` shape,
        // run nothing (the surfaces stay as they are).
        this.#reportToAgent({ code: 'NOT_SUPPORTED', surfaceId: '', message: refused.message });
        return;
      }
      // A retransmitted call (same id) runs once: its known answer is sent again, a running one
      // is sent when it is ready.
      const known = this.#answeredCalls.get(functionCallId);
      if (known && !known.answered) return;
      const answer =
        known?.answer ??
        this.rendererFunctions.handle({ functionCallId, callFunction: message.callFunction });
      if (!known) this.#answeredCalls.remember(functionCallId, answer);
      void answer
        .then((response) =>
          this.send({ version: FUNCTION_CALL_VERSION, rendererFunctionResponse: response }),
        )
        .catch(() => {});
      return;
    }
    this.#agentCalls.settle(
      message.error
        ? { functionCallId, error: { code: message.error.code, message: message.error.message } }
        : { functionCallId, value: message.value ?? null },
    );
  }

  #host(surface: Surface): BindingHost {
    let host = this.#hosts.get(surface);
    if (!host) {
      host = {
        surfaceId: surface.surfaceId,
        dataModel: surface.dataModel,
        functions: surface.catalog.functions,
        locale: this.locale,
        templatesIterateObjects: surface.protocolVersion.templatesIterateObjects === true,
        reportError: (error) => {
          const code =
            error.code === 'URL_BLOCKED' || error.code === 'LIMIT_EXCEEDED'
              ? error.code
              : 'EXPRESSION_ERROR';
          const clientError: ClientError = {
            code,
            surfaceId: surface.surfaceId,
            message: error.message,
          };
          if (error.path !== undefined) clientError.path = error.path;
          this.processor.reportError(clientError);
        },
      };
      this.#hosts.set(surface, host);
    }
    return host;
  }

  /**
   * Why a function call cannot travel on this connection: its transport negotiated a version
   * older than v1.0 (or none). `undefined` when it may (or before there is a transport, which
   * `send` reports itself). Decided on `transport.a2uiVersion`, as the agent side decides on
   * `connection.protocolVersions`.
   */
  #functionCallsRefused(kind: 'callAgentFunction' | 'callRendererFunction'): A2uiError | undefined {
    const transport = this.#transport;
    if (!transport || transport.a2uiVersion === FUNCTION_CALL_VERSION) return undefined;
    const negotiated = transport.a2uiVersion;
    // Before the link first opened nothing is negotiated yet: the call waits in the outbox like
    // any message, and the server refuses it if the connection does not speak v1.0.
    if (negotiated === undefined && !this.#opened) return undefined;
    return new A2uiError(
      'NOT_SUPPORTED',
      `"${kind}" is an A2UI v1.0 message; this connection ${negotiated ? `negotiated ${negotiated}` : 'negotiated no version'}, so function calls are not available on it.`,
      { data: { negotiatedVersion: negotiated ?? null } },
    );
  }

  /** The version a message of a `version` surface is written in on this link (core's one rule). */
  #carried(version: ProtocolVersion): ProtocolVersion {
    return clientMessageVersionOf(this.#transport, version);
  }

  #reportToAgent(error: ClientError): void {
    if (!this.#transport || this.#status === 'closed' || !this.#reporter.admit()) return;
    // In the shape of the error's surface's version (v0.9 requires surfaceId, "" for none; v1.0
    // names exactly one of surfaceId / functionCallId).
    const message = this.#carried(this.processor.protocolVersionOf(error)).encodeError(
      error,
    ) as unknown as ErrorMessage;
    // Reporting is best effort: a failed report must not surface as an unhandled rejection.
    this.send(message).catch(() => {});
  }

  async #pump(transport: ClientTransport, signal: AbortSignal): Promise<void> {
    this.#setStatus('connecting');
    try {
      for await (const event of transport.events({ signal })) {
        this.#handle(event);
      }
    } catch (error) {
      this.#setStatus('closed', toA2uiError(error, 'TRANSPORT_ERROR').message);
      throw error;
    }
    this.#setStatus('closed');
  }

  #handle(event: TransportEvent): void {
    switch (event.type) {
      case 'messages': {
        // A message proves the link is up; `degraded` (open, deliveries failing) stays as it is.
        if (this.#status === 'connecting' || this.#status === 'reconnecting')
          this.#setStatus('open');
        const snapshot = readSessionSnapshot(event.messages);
        if (!snapshot) {
          this.process(event.messages);
          return;
        }
        // The session's surfaces as they are now, on the same connection (the log no longer held
        // what this client missed): they replace ours, in one batch, so a renderer never sees the
        // screen empty in between. Pending calls and the agent go on.
        this.processor.notifier.batch(() => {
          this.processor.reset();
          this.process(snapshot.messages);
        });
        return;
      }
      case 'status':
        this.#setStatus(event.status, event.reason, event.cause);
        return;
      case 'reset':
        // Forgets the errors seen too: after a reset they are news again.
        this.processor.reset();
        // A new connection numbers its calls afresh: an old answer must not reply to a new call.
        this.#answeredCalls.clear();
        this.#agentCalls.failAll(
          new A2uiError('CONNECTION_CLOSED', 'The session was reset before the agent answered.'),
        );
        this.#emit({ type: 'reset', reason: event.reason });
        return;
    }
  }

  #setStatus(status: ConnectionStatus, reason?: string, cause?: TroubleCause): void {
    if (status === this.#status && reason === undefined) return;
    this.#status = status;
    if (status === 'open') this.#opened = true;
    this.#emit(
      cause ? { type: 'status', status, reason, cause } : { type: 'status', status, reason },
    );
  }

  #emit(event: ClientEvent): void {
    for (const listener of [...this.#listeners]) listener(event);
  }
}
