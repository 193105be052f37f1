/**
 * One MCP session as an A2UI connection: an SDK `Server` whose tools hand the client's messages
 * to core's session host and answer with the agent's turn. The server keeps a cursor per
 * session — the last message handed to the client — so every result carries each message the
 * agent sent exactly once, whatever the turn it belongs to (what the agent pushed between two
 * calls arrives with the next).
 */
import {
  A2uiError,
  negotiateWireVersions,
  UNNEGOTIATED_EMIT_VERSION,
  type WireNegotiation,
} from '@a2ui-ts/core';
import type { ReplayEntry, SessionFollow, SessionHost, TurnResult } from '@a2ui-ts/core/host';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type RequestId,
  type ServerNotification,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  A2UI_ACTION_TOOL,
  A2UI_ERROR_TOOL,
  A2UI_EXPERIMENTAL_CAPABILITY,
  A2UI_MIME_TYPE,
  A2UI_OPEN_TOOL,
  type McpA2uiDeclaration,
  offeredVersionsOf,
  readA2uiDeclaration,
  toClientMetadata,
} from '../protocol/mcp-a2ui.js';
import { toToolErrorResult } from '../protocol/mcp-errors.js';
import { A2UI_TOOLS, type McpToolDefinition, toEventTool } from '../protocol/tools.js';
import { A2uiPush } from './a2ui-push.js';
import type { DeliveryLedger } from './delivery-ledger.js';
import type { McpEventDescriptions } from './replay-event-store.js';
import { type SurfaceResources, type SurfacesChange, surfaceUri } from './surface-resources.js';
import { type DeliveryBatch, toProgressNotification, toToolResult } from './tool-results.js';

/** What an MCP session needs of its binding. */
export interface A2uiMcpSessionOptions {
  readonly host: SessionHost;
  /** The host connection of the session (opened by the binding). */
  readonly connectionId: string;
  readonly principal: unknown;
  /** The promise of the connection's `onConnect` turn, when this node opened it. */
  readonly connectTurn?: Promise<TurnResult>;
  /** What the client declared in `initialize` (`capabilities.a2ui`), if anything. */
  readonly declaration: McpA2uiDeclaration | undefined;
  /**
   * The A2UI versions negotiated in `initialize` (`SessionHost.negotiate`): answered as
   * `capabilities.experimental.a2ui`; `undefined` when the client offered none (v0.9).
   */
  readonly negotiated?: WireNegotiation;
  /** `serverInfo` of `initialize`. */
  readonly serverInfo: { name: string; version: string };
  /** `instructions` of `initialize`. */
  readonly instructions?: string;
  /** Most messages one tool result carries (the rest comes with the next call). */
  readonly maxResultMessages: number;
  /** What a client that declared no A2UI gets: text alone, or the A2UI resource too. */
  readonly undeclaredClients: 'text' | 'a2ui';
  /** When the replay log may drop what the client was handed. */
  readonly ledger: DeliveryLedger;
  /** The event store of a resumable transport, told which messages each payload carries. */
  readonly events?: McpEventDescriptions;
  /** The connection's current surfaces, served as resources when given. */
  readonly surfaces?: SurfaceResources;
  /**
   * A live update found a gap the log no longer holds, with no snapshot to fill it: the binding
   * resets the connection and ends the MCP session.
   */
  readonly onReplayGap?: () => void;
}

/** An MCP session's SDK server and its cursor. */
export interface A2uiMcpSession {
  readonly server: Server;
  /** `seq` of the last message handed to the client. */
  readonly deliveredSeq: number;
  /**
   * The client got the surfaces through `throughSeq` as a snapshot (a resumed stream the log no
   * longer covered): the cursor moves there, so nothing the snapshot covers is sent again.
   */
  snapshotDelivered(throughSeq: number): void;
  /** Records what the client declared in `initialize` (a binding that reads it as it arrives). */
  declare(declaration: McpA2uiDeclaration | undefined): void;
  /**
   * The agent changed surfaces (`SurfaceResources`' `onChange`): subscribers of their resources
   * get `notifications/resources/updated`, everyone `resources/list_changed` when surfaces came
   * or went and `tools/list_changed` when the events (the MCP Apps tools) did.
   */
  surfacesChanged(change: SurfacesChange): void;
  /**
   * The client opened its standalone stream (Streamable HTTP `GET`): live updates go there
   * until the returned function is called (the stream ended).
   */
  openPushStream(): () => void;
}

/** JSON-RPC error of `resources/read` for an unknown URI (MCP: "Resource not found"). */
const RESOURCE_NOT_FOUND = -32002;

const invalid = (message: string, path: string) =>
  new A2uiError('VALIDATION_FAILED', message, { path });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The v0.9 client message of a tool call, from the guide's arguments. */
function clientMessageOf(name: string, args: Record<string, unknown>): Record<string, unknown> {
  if (name === A2UI_ACTION_TOOL) {
    if (typeof args.name !== 'string') throw invalid('name must be a string.', '/name');
    if (args.context !== undefined && !isRecord(args.context))
      throw invalid('context must be an object.', '/context');
    return {
      version: 'v0.9',
      action: {
        name: args.name,
        // The guide's call carries only `name` and `context`; an empty surface means "not said".
        surfaceId: args.surfaceId ?? '',
        sourceComponentId: args.sourceComponentId ?? '',
        timestamp: args.timestamp ?? new Date().toISOString(),
        context: args.context ?? {},
      },
    };
  }
  const { code, message, surfaceId, ...rest } = args;
  return { version: 'v0.9', error: { code, message, surfaceId: surfaceId ?? '', ...rest } };
}

/**
 * Creates the SDK server of one MCP session: `tools/list` lists `a2ui_open`, `a2ui_action`,
 * `a2ui_error`; `tools/call` runs the agent's turn and answers with the messages not yet
 * delivered — as an A2UI embedded resource beside a text fallback when the client declared A2UI
 * (in `initialize` or the call's `_meta.a2ui`), as text alone otherwise.
 */
export function createA2uiMcpSession(options: A2uiMcpSessionOptions): A2uiMcpSession {
  const { host, connectionId, principal } = options;
  let deliveredSeq = 0;
  let sessionDeclaration = options.declaration;
  // Results are built one at a time, so that two calls never hand out the same message.
  let building: Promise<unknown> = Promise.resolve();

  const { surfaces } = options;
  const { negotiated } = options;
  const server = new Server(options.serverInfo, {
    capabilities: {
      tools: surfaces ? { listChanged: true } : {},
      ...(surfaces ? { resources: { subscribe: true, listChanged: true } } : {}),
      ...(negotiated
        ? {
            experimental: {
              [A2UI_EXPERIMENTAL_CAPABILITY]: {
                version: negotiated.version,
                versions: [...negotiated.versions],
              },
            },
          }
        : {}),
    },
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
  });

  /** The MCP Apps tools: one per event the current components fire. */
  const eventTools = (): Map<
    string,
    { tool: McpToolDefinition; surfaceId: string; sourceComponentId: string }
  > => {
    const tools = new Map<
      string,
      { tool: McpToolDefinition; surfaceId: string; sourceComponentId: string }
    >();
    for (const [name, event] of surfaces?.events() ?? []) {
      const tool = toEventTool(name, event);
      if (tool) tools.set(name, { tool, ...event });
    }
    return tools;
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...Object.values(A2UI_TOOLS), ...[...eventTools().values()].map((event) => event.tool)],
  }));

  /** Resource URIs the client subscribed to (`resources/subscribe`). */
  const subscribed = new Set<string>();
  if (surfaces) {
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: surfaces.list() }));
    server.setRequestHandler(ReadResourceRequestSchema, (request) => {
      const { uri } = request.params;
      const messages = surfaces.read(uri);
      if (!messages)
        throw new McpError(RESOURCE_NOT_FOUND, 'Resource not found.', { uri: uri.slice(0, 200) });
      return { contents: [{ uri, mimeType: A2UI_MIME_TYPE, text: JSON.stringify(messages) }] };
    });
    server.setRequestHandler(SubscribeRequestSchema, (request) => {
      const { uri } = request.params;
      // Only this session's surfaces (live or to come): a bounded set per session.
      if (!uri.startsWith(surfaceUri('')) || subscribed.size >= 1000)
        throw new McpError(ErrorCode.InvalidParams, 'Only a2ui:// surfaces can be subscribed to.');
      subscribed.add(uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      subscribed.delete(request.params.uri);
      return {};
    });
  }

  type Batch = DeliveryBatch & { readonly afterSeq: number };

  /** Takes the entries after the cursor through `throughSeq` and moves the cursor past them. */
  const take = (entries: readonly ReplayEntry[], throughSeq: number) => {
    const taken = entries.filter((entry) => entry.seq > deliveredSeq && entry.seq <= throughSeq);
    const first = taken[0]?.seq;
    const last = taken.at(-1)?.seq;
    if (first !== undefined && last !== undefined) {
      deliveredSeq = last;
      options.ledger.handedOut(first, last);
    }
    return taken;
  };

  /**
   * The messages after the cursor, through `throughSeq`, and the cursor moved past them; for a
   * connection the agent closed, its last messages (the host's closed-connection memory) and why.
   */
  const takeUndelivered = (throughSeq: number, allowed?: () => boolean): Promise<Batch> => {
    const taking = building.then(async (): Promise<Batch> => {
      const afterSeq = deliveredSeq;
      if (allowed && !allowed()) return { afterSeq, entries: [] };
      let read: Awaited<ReturnType<SessionHost['read']>>;
      try {
        read = await host.read(connectionId, {
          principal,
          afterSeq: deliveredSeq,
          limit: options.maxResultMessages,
        });
      } catch (error) {
        if (!A2uiError.isInstance(error) || error.code !== 'CONNECTION_CLOSED') throw error;
        const closed = await host.closedConnection(connectionId, { principal });
        if (!closed) throw error;
        return { afterSeq, entries: take(closed.entries, throughSeq), closed: closed.reason };
      }
      if (!read.ok)
        throw new A2uiError(
          'CONNECTION_CLOSED',
          'Messages of this session are no longer kept; start a new session.',
          { data: { reset: 'replay-gap' } },
        );
      return { afterSeq, entries: take(read.entries, throughSeq) };
    });
    building = taking.catch(() => undefined);
    return taking;
  };

  /** The result of `requestId`, described to the event store so that a resume rebuilds it. */
  const resultOf = (requestId: RequestId, batch: Batch, a2ui: boolean): CallToolResult => {
    const { afterSeq, entries, closed } = batch;
    options.events?.describeResult(requestId, {
      afterSeq,
      throughSeq: entries.at(-1)?.seq ?? afterSeq,
      a2ui,
      ...(closed === undefined ? {} : { closed }),
    });
    return toToolResult(batch, a2ui);
  };

  /**
   * Streams what the agent sends while `waiting` runs (a long turn) as `notifications/progress`
   * of the call, on its own response stream and so before its result: `progress` is the
   * message's `seq`, `message` the text fallback, `_meta.a2ui` the A2UI (`uri`, `mimeType`,
   * `messages`). Each message moves the cursor, so the result carries only the rest.
   */
  const streamWhile = async <T>(
    waiting: () => Promise<T>,
    progressToken: string | number,
    notify: (notification: ServerNotification) => Promise<void>,
    signal: AbortSignal,
  ): Promise<T> => {
    const stop = new AbortController();
    let follow: SessionFollow;
    try {
      follow = await host.follow(connectionId, {
        principal,
        afterSeq: deliveredSeq,
        signal: stop.signal,
      });
    } catch (error) {
      // The connection ended (the agent closed it): nothing more to stream; the result says so.
      if (A2uiError.isInstance(error) && error.code === 'CONNECTION_CLOSED') return waiting();
      throw error;
    }
    const onAbort = () => stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const pump = (async () => {
      for await (const entry of follow) {
        const sending = building.then(async () => {
          if (entry.seq <= deliveredSeq) return;
          deliveredSeq = entry.seq;
          options.ledger.handedOut(entry.seq, entry.seq);
          const notification = toProgressNotification(entry, progressToken);
          options.events?.describeProgress(notification.params, { seq: entry.seq, progressToken });
          await notify(notification);
        });
        building = sending.catch(() => undefined);
        await building;
      }
    })();
    try {
      return await waiting();
    } finally {
      stop.abort();
      signal.removeEventListener('abort', onAbort);
      await pump;
    }
  };

  /**
   * A call's own declaration (`_meta.a2ui.clientCapabilities`, the guide's stateless variant)
   * must read a version the session speaks: the version is fixed when the session opens.
   * @throws A2uiError `NOT_SUPPORTED` when it shares none, `VALIDATION_FAILED` for a key that
   *   is not a version token
   */
  const checkCallVersions = (declaration: McpA2uiDeclaration | undefined): void => {
    const offered = offeredVersionsOf(declaration);
    if (offered)
      negotiateWireVersions(offered, negotiated?.versions ?? [UNNEGOTIATED_EMIT_VERSION]);
  };

  const call = async (
    request: CallToolRequest,
    requestId: RequestId,
    signal: AbortSignal,
    notify: (notification: ServerNotification) => Promise<void>,
  ): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    const declaration = readA2uiDeclaration(request.params._meta) ?? sessionDeclaration;
    const a2ui = declaration !== undefined || options.undeclaredClients === 'a2ui';
    const progressToken = request.params._meta?.progressToken;
    // Streams only to a client that reads A2UI and asked for progress.
    const streaming = <T>(waiting: () => Promise<T>): Promise<T> =>
      a2ui && progressToken !== undefined
        ? streamWhile(waiting, progressToken, notify, signal)
        : waiting();
    if (name === A2UI_OPEN_TOOL) {
      const connectTurn = options.connectTurn;
      const turn = connectTurn ? await streaming(() => connectTurn) : undefined;
      return resultOf(requestId, await takeUndelivered(turn?.endSeq ?? Infinity), a2ui);
    }
    let message: Record<string, unknown>;
    if (name === A2UI_ACTION_TOOL || name === A2UI_ERROR_TOOL)
      message = clientMessageOf(name, args);
    else {
      // The MCP Apps spelling: the tool is the event, its arguments the context.
      const event = eventTools().get(name);
      if (!event) throw invalid(`Unknown tool ${JSON.stringify(name).slice(0, 80)}.`, '/name');
      message = clientMessageOf(A2UI_ACTION_TOOL, {
        name,
        context: args,
        surfaceId: event.surfaceId,
        sourceComponentId: event.sourceComponentId,
      });
    }
    let received: Awaited<ReturnType<SessionHost['receive']>>;
    try {
      received = await streaming(() =>
        host.receive(connectionId, {
          principal,
          message,
          metadata: toClientMetadata(declaration),
          // The message's own id, else the call's: JSON-RPC ids are unique within a session, so
          // a request sent again (a retry after a dropped POST) is the same action.
          requestId: declaration?.requestId ?? `mcp-request:${String(requestId)}`,
          bytes: JSON.stringify(request.params).length,
          awaitTurn: true,
          signal,
        }),
      );
    } catch (error) {
      // The agent closed the connection: what it sent last, and `closed`, rather than a failure.
      // (`takeUndelivered` throws this error again when the host does not remember it.)
      if (!A2uiError.isInstance(error) || error.code !== 'CONNECTION_CLOSED') throw error;
      return resultOf(requestId, await takeUndelivered(Infinity), a2ui);
    }
    return resultOf(requestId, await takeUndelivered(received.turn?.endSeq ?? Infinity), a2ui);
  };

  const push = new A2uiPush({
    host,
    connectionId,
    principal,
    cursor: () => deliveredSeq,
    take: (allowed) => takeUndelivered(Infinity, allowed),
    a2ui: () => sessionDeclaration !== undefined || options.undeclaredClients === 'a2ui',
    // Our own notification: the SDK's types know only MCP's.
    send: (notification) => server.notification(notification as never),
    ...(options.events ? { events: options.events } : {}),
    ...(options.onReplayGap ? { onReplayGap: options.onReplayGap } : {}),
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // A refused call is no call: it does not open the live updates either.
    try {
      checkCallVersions(readA2uiDeclaration(request.params._meta));
    } catch (error) {
      return toToolErrorResult(error);
    }
    const ended = push.callStarted();
    try {
      return await call(request, extra.requestId, extra.signal, (notification) =>
        extra.sendNotification(notification),
      );
    } catch (error) {
      return toToolErrorResult(error);
    } finally {
      ended();
    }
  });

  return {
    server,
    get deliveredSeq() {
      return deliveredSeq;
    },
    snapshotDelivered(throughSeq) {
      // In turn with the results being built, so that none hands out what the snapshot covers.
      building = building.then(() => {
        deliveredSeq = Math.max(deliveredSeq, throughSeq);
      });
    },
    declare(declaration) {
      sessionDeclaration = declaration;
    },
    openPushStream: () => push.openStream(),
    surfacesChanged({ changed, listChanged, eventsChanged }) {
      // Before `initialize` completes there is no one to tell.
      if (!server.transport) return;
      for (const surfaceId of changed) {
        const uri = surfaceUri(surfaceId);
        if (subscribed.has(uri)) void server.sendResourceUpdated({ uri }).catch(() => undefined);
      }
      if (listChanged) void server.sendResourceListChanged().catch(() => undefined);
      if (eventsChanged) void server.sendToolListChanged().catch(() => undefined);
    },
  };
}
