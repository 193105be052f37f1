/**
 * The stdio entry: one A2UI agent connection served to the MCP host that launched this process
 * (Claude Desktop, an IDE…), over the official SDK's stdio transport. There is one client and
 * no `authenticate`: the principal is the process's user.
 */
import type { Readable, Writable } from 'node:stream';
import {
  type BindingSessionHostOptions,
  createBindingSessionHost,
  type SessionHost,
} from '@a2ui-ts/core/host';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readA2uiDeclaration } from '../protocol/mcp-a2ui.js';
import { createA2uiMcpSession } from './a2ui-mcp-session.js';
import { followSurfaces, MCP_SERVER_DEFAULTS } from './create-mcp-server.js';
import { DeliveryLedger } from './delivery-ledger.js';

/** Options of {@link serveMcpStdio}: the session host's and the entry's own. */
export interface McpStdioOptions extends Omit<BindingSessionHostOptions, 'authenticate'> {
  /** `serverInfo` of `initialize`. @default { name: 'a2ui-agent', version: '0.1.0' } */
  serverInfo?: { name: string; version: string };
  /** `instructions` of `initialize`. @default undefined */
  instructions?: string;
  /** Most messages one tool result carries. @default 1000 */
  maxResultMessages?: number;
  /**
   * What a client that declared no A2UI (neither in `initialize` nor in a call's `_meta.a2ui`)
   * gets: `'text'`, the text fallback alone; `'a2ui'`, the A2UI resource beside it, as the
   * guide's samples answer every client (a generic host such as the MCP Inspector shows it as
   * JSON). Such a client is served v0.9, as one that declared no versions.
   * @default 'text'
   */
  undeclaredClients?: 'text' | 'a2ui';
  /** Where JSON-RPC comes from. @default process.stdin */
  stdin?: Readable;
  /** Where JSON-RPC goes. @default process.stdout */
  stdout?: Writable;
}

/** A running stdio server. */
export interface McpStdioServer {
  readonly host: SessionHost;
  /** Ends the connection (the agent sees `server-closed`) and stops reading. */
  close(): Promise<void>;
}

/**
 * Serves `options.agent` over MCP stdio: the same tools and results as {@link createMcpServer}'s
 * Streamable HTTP sessions. It ends when the host closes stdin or on `close()`; the connection
 * lives as long (the grace period is the process's life).
 *
 * @param options - the agent and limits; see {@link McpStdioOptions}
 * @returns the server, once it reads stdin
 * @throws A2uiError `LIMIT_EXCEEDED` only if `maxSessions` is 0
 *
 * @example
 * ```ts
 * // a2ui-mcp-server.ts — run by an MCP host as `node a2ui-mcp-server.js`
 * await serveMcpStdio({ agent: { onConnect: (connection) => connection.send(messages) } });
 * ```
 */
export async function serveMcpStdio(options: McpStdioOptions): Promise<McpStdioServer> {
  const host = createBindingSessionHost({
    ...options,
    // One client for the life of the process: never expire it for want of requests.
    reconnectGraceMs: options.reconnectGraceMs ?? 2_147_483_647,
  });
  const opened = await host.open({ principal: undefined });
  const surfaces = await followSurfaces(host, opened.connectionId);
  const session = createA2uiMcpSession({
    host,
    connectionId: opened.connectionId,
    principal: undefined,
    connectTurn: opened.connectTurn,
    declaration: undefined,
    serverInfo: options.serverInfo ?? MCP_SERVER_DEFAULTS.serverInfo,
    instructions: options.instructions,
    maxResultMessages: options.maxResultMessages ?? MCP_SERVER_DEFAULTS.maxResultMessages,
    undeclaredClients: options.undeclaredClients ?? MCP_SERVER_DEFAULTS.undeclaredClients,
    // A pipe does not drop part of a stream: what is written is read.
    ledger: new DeliveryLedger({
      acknowledge: (seq) => host.acknowledge(opened.connectionId, { principal: undefined, seq }),
      deferred: false,
    }),
    surfaces,
  });
  surfaces?.onChange((change) => session.surfacesChanged(change));
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout);
  // The SDK drops capabilities it does not know (`a2ui`): read them from the raw message first.
  transport.onmessage = (message) => {
    if ('method' in message && message.method === 'initialize')
      session.declare(readA2uiDeclaration(message.params?.capabilities));
  };
  transport.onclose = () => {
    surfaces?.close();
    void host.close();
  };
  await session.server.connect(transport);
  // The SDK's transport does not notice the end of its input. MCP's stdio rules have a host
  // close our stdin and wait for us to exit before it signals, so the end of stdin ends us.
  stdin.once('end', () => void session.server.close());
  return {
    host,
    async close() {
      await session.server.close();
      await host.close();
    },
  };
}
