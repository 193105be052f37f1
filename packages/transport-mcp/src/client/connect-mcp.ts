/**
 * The client connector: a `ClientTransport` on the MCP SDK's `Client`, for any MCP server — ours
 * or one built as the A2UI guide shows. It declares A2UI in `initialize`, reads the UI the server
 * offers (its `a2ui_open` tool, its `application/a2ui+json` resources), hands every A2UI payload
 * of a tool result to `A2uiClient`, and sends actions and errors back as the guide's tool calls,
 * each with its own id in `_meta.a2ui.requestId` so that a retry is delivered once.
 */
import {
  A2uiError,
  BASIC_CATALOG_ID,
  type ClientMessage,
  type ClientMessageMetadata,
  type ClientTransport,
  type ConnectionStatus,
  createConnectionId,
  isA2uiMimeType,
  resolveOfferedVersions,
  type SendOptions,
  V0_9_1_BASIC_CATALOG_ID,
  V1_0_BASIC_CATALOG_ID,
  V08_STANDARD_CATALOG_ID,
} from '@a2ui-ts/core';
import {
  createLinkTransport,
  type HttpLinkOptions,
  type LinkAttempt,
  type LinkOutcome,
  Outbox,
  type OutboxDelivery,
  type OutboxEntry,
  readSessionSnapshot,
  resolveHeaders,
  resolveLinkOptions,
  SESSION_SNAPSHOT_KEY,
} from '@a2ui-ts/core/link';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  A2UI_EXPERIMENTAL_CAPABILITY,
  A2UI_MESSAGES_NOTIFICATION,
  A2UI_META_KEY,
  A2UI_OPEN_TOOL,
  findA2uiTexts,
} from '../protocol/mcp-a2ui.js';
import { fromToolErrorResult } from '../protocol/mcp-errors.js';
import { classifyMcpFailure } from './mcp-failure.js';
import { toActionCall } from './tool-calls.js';

/** Options of {@link connectMcp}. Durations in milliseconds. */
export interface McpClientOptions extends HttpLinkOptions {
  /** The server's Streamable HTTP endpoint (e.g. `https://example.com/mcp`). Required without `createTransport`. */
  url?: string | URL;
  /**
   * Makes the SDK transport of each session instead of Streamable HTTP to `url` — e.g.
   * `() => new StdioClientTransport({ command })`. `headers` and `fetch` then do not apply.
   * @default undefined
   */
  createTransport?: () => Transport;
  /** `clientInfo` of `initialize`. @default { name: 'a2ui-ts', version: '0.1.0' } */
  clientInfo?: { name: string; version: string };
  /**
   * The catalogs declared in `initialize` as `capabilities.a2ui.clientCapabilities`, keyed by
   * A2UI version: its keys are the versions offered, and the server answers the one it speaks
   * ({@link McpTransport.a2uiVersion}). Each call also carries the metadata `A2uiClient` gives
   * with the message.
   * @default each of `offeredVersions` with its basic catalog
   */
  clientCapabilities?: Record<string, unknown>;
  /**
   * The A2UI versions offered when `clientCapabilities` is not given, each declared with its
   * basic catalog (the versions whose catalogs `A2uiClient` declares by default).
   * @default ['v1.0', 'v0.9']
   */
  offeredVersions?: readonly string[];
  /**
   * The tool called when a session opens, whose result is the UI to show: by default the
   * server's `a2ui_open` when it lists one (our servers do); `false` calls none.
   * @default { name: 'a2ui_open', arguments: {} } when listed
   */
  openTool?: { name: string; arguments?: Record<string, unknown> } | false;
  /**
   * Reads every resource the server lists with an A2UI MIME type when a session opens, unless an
   * open tool was called (its result builds the same surfaces). @default true
   */
  readResources?: boolean;
  /** Longest wait for one MCP request (a tool call waits for the agent's turn). @default 60000 */
  requestTimeoutMs?: number;
  /**
   * Attempts to resume a dropped Streamable HTTP stream (`GET` with `Last-Event-ID`, the SDK's
   * resumability), spaced by `reconnect`'s backoff (or the server's `retry:` hint). When they
   * are spent, the session is given up and a new one opens (`reset`).
   * @default 5
   */
  maxStreamRetries?: number;
}

/** The transport {@link connectMcp} returns. */
export interface McpTransport extends ClientTransport {
  /** The SDK client of the current session (`undefined` before it is open). */
  readonly client: Client | undefined;
  /** `Mcp-Session-Id` of the current session (Streamable HTTP). */
  readonly sessionId: string | undefined;
  readonly status: ConnectionStatus;
  /**
   * The A2UI version the server answered in `initialize` (`capabilities.experimental.a2ui.version`);
   * `undefined` before a session is open, or from a server that negotiates none (it speaks v0.9).
   */
  readonly a2uiVersion: string | undefined;
  /** The same as {@link a2uiVersion}, under the name the other bindings' transports use. */
  readonly protocolVersion: string | undefined;
  /**
   * Calls any tool of the server and hands the A2UI in its result to the client — what a host
   * does when its model calls a tool. Resolves with the whole result.
   * @throws A2uiError `CONNECTION_CLOSED` before a session is open, the server's refusal otherwise
   */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: { signal?: AbortSignal },
  ): Promise<CallToolResult>;
}

/** Defaults of {@link McpClientOptions}, in one place. */
export const MCP_CLIENT_DEFAULTS = {
  clientInfo: { name: 'a2ui-ts', version: '0.1.0' },
  offeredVersions: ['v1.0', 'v0.9'],
  readResources: true,
  requestTimeoutMs: 60_000,
  maxStreamRetries: 5,
  maxQueuedMessages: 1_000,
  maxBatchLength: 1,
} as const;

interface Outgoing {
  message: ClientMessage;
  metadata: ClientMessageMetadata;
}

interface Session {
  readonly client: Client;
  readonly key: string;
  readonly tools: ReadonlySet<string>;
  /** Ends the link of this session (the server forgot it, or it closed). */
  end(outcome: LinkOutcome): void;
}

/** The basic catalog of each version `connectMcp` offers by default. */
const BASIC_CATALOGS: Readonly<Record<string, string>> = {
  'v1.0': V1_0_BASIC_CATALOG_ID,
  'v0.9.1': V0_9_1_BASIC_CATALOG_ID,
  'v0.9': BASIC_CATALOG_ID,
  'v0.8': V08_STANDARD_CATALOG_ID,
};

/**
 * The default declaration: each offered version with its basic catalog.
 * @throws A2uiError `VALIDATION_FAILED` for a malformed offer or a version without a known basic
 *   catalog (declare it in `clientCapabilities`)
 */
function defaultCapabilities(options: McpClientOptions): Record<string, unknown> {
  const offered = resolveOfferedVersions(
    options.offeredVersions ?? MCP_CLIENT_DEFAULTS.offeredVersions,
  );
  const declared: Record<string, unknown> = {};
  for (const version of offered) {
    const catalogId = BASIC_CATALOGS[version];
    if (!catalogId)
      throw new A2uiError(
        'VALIDATION_FAILED',
        `offeredVersions: connectMcp knows no catalog of ${version}; declare it in clientCapabilities.`,
        { data: { field: 'offeredVersions' } },
      );
    declared[version] = { supportedCatalogIds: [catalogId] };
  }
  return declared;
}

/** The version a server answered in `initialize`, if it negotiated one. */
function negotiatedVersionOf(client: Client): string | undefined {
  const answer = client.getServerCapabilities()?.experimental?.[A2UI_EXPERIMENTAL_CAPABILITY];
  const version = (answer as { version?: unknown } | undefined)?.version;
  return typeof version === 'string' ? version : undefined;
}

/**
 * Connects to an MCP server as an A2UI client transport. Each MCP session is one A2UI
 * connection: when the server forgets it (HTTP 404), the transport opens a new session and
 * emits `reset`. Tool calls are turn results: `send` settles once the answer's A2UI is queued.
 *
 * @param options - the endpoint (or an SDK transport), capabilities and link policy; see {@link McpClientOptions}
 * @returns the transport; pass it to `new A2uiClient({ transport })`
 * @throws A2uiError `VALIDATION_FAILED` without `url` or `createTransport`, or for an
 *   `offeredVersions` that is empty, malformed or names a version without a known basic catalog
 *
 * @example
 * ```ts
 * const client = new A2uiClient({ transport: connectMcp({ url: 'http://127.0.0.1:8787/mcp' }) });
 * client.connect();
 * ```
 */
export function connectMcp(options: McpClientOptions): McpTransport {
  const defaults = MCP_CLIENT_DEFAULTS;
  if (options.url === undefined && options.createTransport === undefined)
    throw new A2uiError('VALIDATION_FAILED', 'connectMcp needs url or createTransport.');
  const kit = resolveLinkOptions(options, defaults);
  const timeout = options.requestTimeoutMs ?? defaults.requestTimeoutMs;
  const capabilities = {
    a2ui: { clientCapabilities: options.clientCapabilities ?? defaultCapabilities(options) },
  };
  /** What the current session's server answered (`capabilities.experimental.a2ui.version`). */
  let a2uiVersion: string | undefined;
  let session: Session | undefined;
  let opened = false;
  /** Set when a result said the agent closed the connection: the transport ends. */
  let serverClosed: string | undefined;

  const createSdkTransport = (): Transport => {
    if (options.createTransport) return options.createTransport();
    const baseFetch = options.fetch ?? globalThis.fetch;
    return new StreamableHTTPClientTransport(new URL(options.url!), {
      reconnectionOptions: {
        initialReconnectionDelay: kit.reconnect.initialDelayMs,
        maxReconnectionDelay: kit.reconnect.maxDelayMs,
        reconnectionDelayGrowFactor: 2,
        maxRetries: options.maxStreamRetries ?? defaults.maxStreamRetries,
      },
      // Headers asked for before each request, so a refreshed token is picked up.
      fetch: async (input, init) => {
        const headers = await resolveHeaders(options.headers);
        for (const [name, value] of new Headers(init?.headers)) headers.set(name, value);
        return baseFetch(input, {
          ...init,
          headers,
          ...(options.credentials ? { credentials: options.credentials } : {}),
        });
      },
    });
  };

  /**
   * Queues A2UI messages for the client, in order. A session snapshot among them (our server's
   * answer to a resume its log no longer covers) goes on its own, as the client reads one.
   */
  const queue = (messages: unknown): void => {
    let list = messages;
    if (typeof messages === 'string' && messages.includes(SESSION_SNAPSHOT_KEY)) {
      try {
        list = JSON.parse(messages);
      } catch {
        // Malformed: the client parses the text itself and reports it.
      }
    }
    if (!Array.isArray(list) || !list.some((item) => readSessionSnapshot(item))) {
      shell.push({ type: 'messages', messages });
      return;
    }
    let run: unknown[] = [];
    for (const item of list) {
      if (!readSessionSnapshot(item)) {
        run.push(item);
        continue;
      }
      if (run.length > 0) shell.push({ type: 'messages', messages: run });
      run = [];
      shell.push({ type: 'messages', messages: item });
    }
    if (run.length > 0) shell.push({ type: 'messages', messages: run });
  };

  /** Queues the A2UI of a tool result or resource contents for the client, in order. */
  const apply = (blocks: readonly unknown[]): void => {
    // The text as it came: the client parses it and reports a malformed payload itself.
    for (const found of findA2uiTexts(blocks)) queue(found.text ?? '');
  };

  /** The A2UI of a progress notification (`_meta.a2ui.messages`), queued for the client. */
  const applyProgress = (progress: { _meta?: Record<string, unknown> }): void => {
    const a2ui = progress._meta?.[A2UI_META_KEY] as { messages?: unknown } | undefined;
    if (a2ui?.messages !== undefined) queue(a2ui.messages);
  };

  const callTool = async (
    current: Session,
    name: string,
    args: Record<string, unknown>,
    meta: Record<string, unknown> | undefined,
    signal: AbortSignal | undefined,
  ): Promise<CallToolResult> => {
    const result = (await current.client.callTool(
      { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
      undefined,
      {
        signal,
        timeout,
        // Asks for the A2UI the agent sends during a long turn (our servers stream it as
        // progress; others ignore the token), and keeps a call that makes progress alive.
        onprogress: (progress) => applyProgress(progress as { _meta?: Record<string, unknown> }),
        resetTimeoutOnProgress: true,
      },
    )) as CallToolResult;
    if (result.isError) throw fromToolErrorResult(result);
    apply(result.content ?? []);
    const closed = (result._meta?.[A2UI_META_KEY] as { closed?: unknown } | undefined)?.closed;
    if (typeof closed === 'string') {
      serverClosed = `The server closed the connection (${closed}).`;
      current.end({ kind: 'closed', reason: serverClosed });
    }
    return result;
  };

  /** What the server offers when a session opens: its open tool's result, its A2UI resources. */
  const loadInitial = async (current: Session, signal: AbortSignal): Promise<void> => {
    const openTool =
      options.openTool ?? (current.tools.has(A2UI_OPEN_TOOL) ? { name: A2UI_OPEN_TOOL } : false);
    if (openTool)
      await callTool(current, openTool.name, openTool.arguments ?? {}, undefined, signal);
    // The open tool's result already built every surface: its resources would build them twice.
    if (
      !openTool &&
      (options.readResources ?? defaults.readResources) &&
      current.client.getServerCapabilities()?.resources
    ) {
      const { resources } = await current.client.listResources(undefined, { signal, timeout });
      for (const resource of resources) {
        if (!resource.mimeType || !isA2uiMimeType(resource.mimeType)) continue;
        const read = await current.client.readResource({ uri: resource.uri }, { signal, timeout });
        apply(read.contents);
      }
    }
  };

  const runLink = async (attempt: LinkAttempt): Promise<LinkOutcome> => {
    const client = new Client(options.clientInfo ?? defaults.clientInfo, {
      // `a2ui` is the guide's capability; the SDK's types know only MCP's own.
      capabilities: capabilities as never,
    });
    let end!: (outcome: LinkOutcome) => void;
    const ended = new Promise<LinkOutcome>((resolve) => {
      end = resolve;
    });
    client.onclose = () => end({ kind: 'dropped', reason: 'The MCP connection closed.' });
    // Live updates between calls (our servers' standalone stream); other notifications are not A2UI.
    client.fallbackNotificationHandler = async (notification) => {
      if (notification.method === A2UI_MESSAGES_NOTIFICATION)
        applyProgress((notification.params ?? {}) as { _meta?: Record<string, unknown> });
    };
    // The SDK resumes a dropped stream by itself and tells only `onerror` when it cannot: the
    // server forgot the session (404: it expired, or was reset after a gap its log no longer
    // holds), or every resume attempt failed. Either way this session is over.
    client.onerror = (error) => {
      if (error instanceof StreamableHTTPError && error.code === 404)
        end({ kind: 'dropped', reason: 'The MCP server forgot the session.' });
      else if (error.message.startsWith('Maximum reconnection attempts'))
        end({ kind: 'dropped', reason: 'The MCP stream could not be resumed.' });
    };
    const stop = () => end({ kind: 'closed', reason: 'Closed by the client.' });
    attempt.signal.addEventListener('abort', stop, { once: true });
    try {
      const sdkTransport = createSdkTransport();
      await client.connect(sdkTransport, { signal: attempt.signal, timeout });
      a2uiVersion = negotiatedVersionOf(client);
      const { tools } = await client.listTools(undefined, { signal: attempt.signal, timeout });
      const current: Session = {
        client,
        key: sdkTransport.sessionId ?? createConnectionId(),
        tools: new Set(tools.map((tool) => tool.name)),
        end,
      };
      // A new MCP session after another is a new A2UI connection: its surfaces are gone.
      if (opened) {
        outbox.reset();
        shell.push({ type: 'reset', reason: 'The MCP server started a new session.' });
      }
      session = current;
      await loadInitial(current, attempt.signal);
      opened = true;
      if (serverClosed !== undefined) return { kind: 'closed', reason: serverClosed };
      outbox.setConnection(current.key);
      attempt.opened();
      return await ended;
    } catch (error) {
      if (attempt.signal.aborted) return { kind: 'closed', reason: 'Closed by the client.' };
      const failure = classifyMcpFailure(error, 'MCP initialize');
      if (failure.kind === 'refused') return { kind: 'fatal', error: failure.error };
      return {
        kind: 'dropped',
        reason: failure.reason,
        ...(failure.kind === 'retry' && failure.retryAfterMs !== undefined
          ? { retryAfterMs: failure.retryAfterMs }
          : {}),
      };
    } finally {
      attempt.signal.removeEventListener('abort', stop);
      outbox.pause();
      if (session?.client === client) session = undefined;
      await client.close().catch(() => undefined);
    }
  };

  const deliver = async (
    entry: OutboxEntry<Outgoing>,
    signal: AbortSignal,
  ): Promise<OutboxDelivery> => {
    const current = session;
    if (!current) return { kind: 'retry', reason: 'No MCP session is open.' };
    const call = toActionCall(entry.item.message, entry.item.metadata, entry.id, current.tools);
    try {
      await callTool(current, call.name, call.arguments, call.meta, signal);
      return { kind: 'answered' };
    } catch (error) {
      const failure = classifyMcpFailure(error, `tools/call ${call.name}`);
      if (failure.kind === 'retry') return failure;
      if (serverClosed !== undefined) {
        const closed = new A2uiError('CONNECTION_CLOSED', serverClosed);
        return { kind: 'answered', errors: new Map([[entry.id, closed]]) };
      }
      if (failure.kind === 'session-gone') {
        current.end({ kind: 'dropped', reason: failure.reason });
        const gone = new A2uiError(
          'CONNECTION_CLOSED',
          'The MCP server forgot the session; its surfaces are gone.',
        );
        return { kind: 'answered', errors: new Map([[entry.id, gone]]) };
      }
      return { kind: 'answered', errors: new Map([[entry.id, failure.error]]) };
    }
  };

  const outbox = new Outbox<Outgoing>({
    ...kit.outbox,
    // One tool call per message: each result is that message's turn.
    maxBatchLength: 1,
    onTrouble: (trouble) => shell.status.trouble(trouble),
    deliver: (batch, context) => deliver(batch[0]!, context.signal),
  });

  const shell = createLinkTransport({
    name: 'MCP',
    connect: runLink,
    ...kit.shell,
    goodbye: async () => {
      const transport = session?.client.transport;
      // Streamable HTTP: DELETE the session, so the agent sees `client-closed` at once.
      if (transport instanceof StreamableHTTPClientTransport)
        await transport.terminateSession().catch(() => undefined);
    },
    onClose: (error) => outbox.close(error),
  });

  return {
    get client() {
      return session?.client;
    },
    get sessionId() {
      const transport = session?.client.transport;
      return transport instanceof StreamableHTTPClientTransport ? transport.sessionId : undefined;
    },
    get status() {
      return shell.status.status;
    },
    get a2uiVersion() {
      return a2uiVersion;
    },
    get protocolVersion() {
      return a2uiVersion;
    },
    events: shell.events,
    send(message: ClientMessage, metadata: ClientMessageMetadata, sendOptions: SendOptions = {}) {
      return shell.sendWhileOpen(() => outbox.enqueue({ message, metadata }, sendOptions));
    },
    async callTool(name, args = {}, callOptions = {}) {
      const current = session;
      if (!current) throw new A2uiError('CONNECTION_CLOSED', 'No MCP session is open.');
      return callTool(current, name, args, undefined, callOptions.signal);
    },
    close: shell.close,
  };
}
