/**
 * Runs one MCP App in a proxy frame: ext-apps' `AppBridge` (the host side of the MCP Apps
 * JSON-RPC: `ui/initialize`, `tools/call`, `ui/update-model-context`, size changes) over a
 * {@link ProxyFrameTransport}, with this host's policy in each handler.
 */
import { A2uiError } from '@a2ui-ts/core';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpAppRefusal } from './mcp-app-options.js';
import { ProxyFrameTransport } from './proxy-frame-transport.js';
import { MCP_APP_INNER_SANDBOX } from './sandbox-proxy.js';

/** Options of {@link connectMcpApp}. */
export interface ConnectMcpAppOptions {
  /** The outer frame, rendered without `src`: the proxy is loaded once the channel listens. */
  readonly frame: HTMLIFrameElement;
  readonly proxyUrl: string;
  readonly hostInfo: { readonly name: string; readonly version: string };
  /** The app document (called once, when the proxy is ready). */
  loadHtml(signal: AbortSignal): Promise<string>;
  /** True when the app may call `tool` (both allow-lists). */
  isToolAllowed(tool: string): boolean;
  /** Relays an allowed call to the MCP server. */
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    signal: AbortSignal,
  ): Promise<CallToolResult>;
  /** `ui/update-model-context`: the app's structured state (may be undefined). */
  onModelContext(structuredContent: Record<string, unknown> | undefined): void;
  /** `ui/notifications/size-changed`: the height the app asks for, in CSS pixels. */
  onHeight(heightPx: number): void;
  /** Opens a link; `false` when refused. */
  openLink(url: string): boolean;
  onRefused(request: McpAppRefusal['request'], subject: string): void;
  /** Loading failed (the app cannot run); the message is safe to show. */
  onError(error: unknown): void;
  /** Ends the app: closes the channel. */
  readonly signal: AbortSignal;
}

/**
 * Connects the host to the app in `frame` and loads the proxy into it.
 *
 * @throws A2uiError `VALIDATION_FAILED` when `proxyUrl` is not of this page's origin
 */
export async function connectMcpApp(options: ConnectMcpAppOptions): Promise<void> {
  const proxyOrigin = new URL(options.proxyUrl, window.location.href).origin;
  if (proxyOrigin !== window.location.origin)
    throw new A2uiError(
      'VALIDATION_FAILED',
      'The MCP App sandbox proxy must be served from this page’s own origin.',
    );
  const proxyWindow = options.frame.contentWindow;
  if (!proxyWindow) throw new A2uiError('VALIDATION_FAILED', 'The MCP App frame is not attached.');

  const bridge = new AppBridge(
    null,
    { ...options.hostInfo },
    { serverTools: {}, updateModelContext: { structuredContent: {} }, openLinks: {} },
    { hostContext: { displayMode: 'inline', availableDisplayModes: ['inline'], platform: 'web' } },
  );
  let loading = false;
  bridge.onsandboxready = () => {
    if (loading) return;
    loading = true;
    options
      .loadHtml(options.signal)
      .then((html) => bridge.sendSandboxResourceReady({ html, sandbox: MCP_APP_INNER_SANDBOX }))
      .catch((error: unknown) => {
        if (!options.signal.aborted) options.onError(error);
      });
  };
  bridge.oncalltool = async (params, extra) => {
    if (!options.isToolAllowed(params.name)) {
      options.onRefused('tools/call', params.name);
      throw new McpError(
        ErrorCode.InvalidParams,
        `Tool "${params.name}" is not allowed for this MCP App.`,
      );
    }
    try {
      return await options.callTool(
        { name: params.name, arguments: params.arguments },
        AbortSignal.any([extra.signal, options.signal]),
      );
    } catch {
      // The server's own text may hold internals; the app learns only that the call failed.
      throw new McpError(ErrorCode.InternalError, `Tool "${params.name}" failed.`);
    }
  };
  bridge.onupdatemodelcontext = async (params) => {
    options.onModelContext(params.structuredContent);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height)) options.onHeight(height);
  };
  bridge.onopenlink = async ({ url }) => {
    if (options.openLink(url)) return {};
    options.onRefused('ui/open-link', url);
    return { isError: true };
  };
  bridge.onmessage = async ({ role }) => {
    // A2UI has no conversation to post into: an app speaks to the agent through actions.
    options.onRefused('ui/message', String(role));
    return { isError: true };
  };
  bridge.onrequestdisplaymode = async () => ({ mode: 'inline' });

  const transport = new ProxyFrameTransport({ proxyWindow, proxyOrigin });
  await bridge.connect(transport);
  options.signal.addEventListener('abort', () => void bridge.close(), { once: true });
  if (options.signal.aborted) {
    await bridge.close();
    return;
  }
  options.frame.src = options.proxyUrl;
}
