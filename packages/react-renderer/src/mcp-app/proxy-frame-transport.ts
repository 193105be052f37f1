/**
 * The host end of the postMessage channel to one sandbox proxy frame, as an MCP SDK `Transport`
 * for ext-apps' `AppBridge`. Unlike ext-apps' `PostMessageTransport` (which checks the source
 * only and posts to `'*'`), it accepts a message only when both its source window and its origin
 * are the proxy's, and posts only to the proxy's origin: an app posting to `window.top` directly,
 * another surface's frame, or any other window is ignored.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** Options of {@link ProxyFrameTransport}. */
export interface ProxyFrameTransportOptions {
  /** The proxy frame's window (`iframe.contentWindow`). */
  readonly proxyWindow: Window;
  /** The origin the proxy page is served from (the host's own, for the same-origin proxy). */
  readonly proxyOrigin: string;
  /** Called with each message refused by the checks (for tests and logs). @default none */
  readonly onRefused?: (event: MessageEvent) => void;
  /** The window listening for the proxy's messages. @default globalThis.window */
  readonly hostWindow?: Window;
}

/** An SDK `Transport` over `postMessage` with one proxy frame, source and origin checked. */
export class ProxyFrameTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: ProxyFrameTransportOptions;
  readonly #hostWindow: Window;
  #closed = false;

  constructor(options: ProxyFrameTransportOptions) {
    this.#options = options;
    this.#hostWindow = options.hostWindow ?? window;
  }

  readonly #listener = (event: MessageEvent): void => {
    if (event.source !== this.#options.proxyWindow || event.origin !== this.#options.proxyOrigin) {
      // Messages for other frames share this window's event: only ours are our business.
      if (isJsonRpcLike(event.data)) this.#options.onRefused?.(event);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(event.data);
    if (!parsed.success) {
      this.onerror?.(new Error('The MCP App sent a message that is not JSON-RPC 2.0.'));
      return;
    }
    this.onmessage?.(parsed.data);
  };

  async start(): Promise<void> {
    this.#hostWindow.addEventListener('message', this.#listener);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    this.#options.proxyWindow.postMessage(message, this.#options.proxyOrigin);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#hostWindow.removeEventListener('message', this.#listener);
    this.onclose?.();
  }
}

function isJsonRpcLike(data: unknown): boolean {
  return (
    typeof data === 'object' && data !== null && (data as { jsonrpc?: unknown }).jsonrpc === '2.0'
  );
}
