/**
 * What a host gives the `McpApp` component: the sandbox proxy URL, the MCP server the app's
 * resource and tool calls go to, and the host's allow-list — the ceiling no agent can raise.
 */

import { A2uiError } from '@a2ui-ts/core';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';

/** The two MCP requests `McpApp` makes: `resources/read` and `tools/call`. */
export interface McpAppServer {
  readResource(
    params: { uri: string },
    options?: { signal?: AbortSignal },
  ): Promise<ReadResourceResult>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    options?: { signal?: AbortSignal },
  ): Promise<CallToolResult>;
}

/** Why the host refused something an app asked for (see {@link McpAppOptions.onRefused}). */
export interface McpAppRefusal {
  /** `tools/call` outside the allow-lists, `ui/open-link` without a handler, `ui/message`. */
  readonly request: 'tools/call' | 'ui/open-link' | 'ui/message';
  /** The tool name, the link, or the message role. */
  readonly subject: string;
  /** The component id of the app. */
  readonly componentId: string;
}

/** Options of `createMcpAppComponent` and `createMcpAppRegistry`. */
export interface McpAppOptions {
  /**
   * URL of the sandbox proxy page (`MCP_APP_SANDBOX_PROXY_HTML`), served from this page's own
   * origin. A URL of another origin is refused: the proxy trusts only its own origin as host.
   */
  readonly proxyUrl: string;
  /**
   * The MCP server of the apps: `ui://` resources are read and allowed tools called through it.
   * Without one, only inline `content` apps render and every tool call is refused.
   * @default undefined
   */
  readonly server?: McpAppServer;
  /**
   * Tools any app of this host may call. A call runs only when the tool is here **and** in the
   * component's own `allowedTools`: the agent narrows, never widens.
   * @default [] (no tool calls)
   */
  readonly allowedTools?: readonly string[];
  /** Largest app document, in UTF-8 bytes. @default 2_000_000 */
  readonly maxHtmlBytes?: number;
  /** Tallest frame an app may ask for (`ui/notifications/size-changed`), in CSS pixels. @default 2000 */
  readonly maxHeightPx?: number;
  /**
   * Opens a link an app asks for (`ui/open-link`), after the renderer's URL policy passed it.
   * @default undefined (links refused)
   */
  readonly onOpenLink?: (url: string) => void;
  /** Told about each refused request (logging, tests). @default undefined */
  readonly onRefused?: (refusal: McpAppRefusal) => void;
  /** `hostInfo` of the `ui/initialize` answer. @default { name: 'a2ui-ts', version: '0.1.0' } */
  readonly hostInfo?: { readonly name: string; readonly version: string };
}

/** Defaults of {@link McpAppOptions}, in one place. */
export const MCP_APP_DEFAULTS = {
  allowedTools: [] as readonly string[],
  maxHtmlBytes: 2_000_000,
  maxHeightPx: 2000,
  initialHeightPx: 240,
  hostInfo: { name: 'a2ui-ts', version: '0.1.0' },
} as const;

/** The MIME type of an MCP App resource (`text/html;profile=mcp-app`), as ext-apps names it. */
export const MCP_APP_MIME_TYPE: string = RESOURCE_MIME_TYPE;

/**
 * An {@link McpAppServer} over the SDK `Client` — or a getter, for a client that changes per
 * session (`connectMcp(...).client` of `@a2ui-ts/transport-mcp`).
 *
 * @throws A2uiError `CONNECTION_CLOSED` (from the returned methods) while the getter gives none
 * @example
 * ```ts
 * const transport = connectMcp({ url: '/mcp' });
 * const server = mcpAppServerFromClient(() => transport.client);
 * ```
 */
export function mcpAppServerFromClient(client: Client | (() => Client | undefined)): McpAppServer {
  const current = (): Client => {
    const found = typeof client === 'function' ? client() : client;
    if (!found) throw new A2uiError('CONNECTION_CLOSED', 'No MCP session is open.');
    return found;
  };
  return {
    readResource: (params, options) => current().readResource(params, options),
    callTool: async (params, options) =>
      (await current().callTool(params, undefined, options)) as CallToolResult,
  };
}

/** True when both the host's and the component's allow-lists name `tool`. */
export function isToolAllowed(
  tool: string,
  hostAllowed: readonly string[],
  componentAllowed: unknown,
): boolean {
  return (
    hostAllowed.includes(tool) &&
    Array.isArray(componentAllowed) &&
    componentAllowed.some((name) => name === tool)
  );
}
