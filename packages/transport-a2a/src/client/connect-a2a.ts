/**
 * The client transport (ARCHITECTURE §4 "A2A"): A2UI over A2A on `@a2a-js/sdk`'s client. It reads
 * the agent card, checks the A2UI extension, opens the conversation (a context) and feeds the
 * agent's A2UI parts to `A2uiClient` in arrival order wherever the agent puts them; each action
 * (or error, or text) is one A2A message of the context — continuing the task while it waits for
 * input — with the client capabilities and data model in its metadata, and its answer is the turn
 * the agent streams back. A cut stream is resumed with `SubscribeToTask`; against this package's
 * server (whose parts carry `a2uiSeq`) the client says where it is (`Last-Event-ID`), so nothing is
 * lost or repeated, and holds a subscription while the task waits, which carries the agent's
 * pushes. It talks v0.3 to agents whose card says so. Reconnects, the outbox and the status are
 * core's link kit; the link is `A2aClientLink`, this file the transport it is seen as.
 */

import type { ClientMessage, ClientMessageMetadata, SendOptions } from '@a2ui-ts/core';
import { A2aClientLink } from './a2a-client-link.js';
import type { A2aClientOptions, A2aTransport } from './a2a-client-options.js';

export type { A2aClientOptions, A2aTransport } from './a2a-client-options.js';
export { A2A_CLIENT_DEFAULTS } from './a2a-client-options.js';

/**
 * Connects to an A2A agent that speaks A2UI. The link opens when `A2uiClient` calls `events()`;
 * `send` may be called before, and waits for the conversation.
 *
 * @param options - see {@link A2aClientOptions}
 * @returns a `ClientTransport` with `contextId`, `taskId`, `sendText`, `status` and `pendingMessages`
 *
 * @example
 * ```ts
 * const client = new A2uiClient({ transport: connectA2a({ url: 'https://agents.example.com/restaurant' }) });
 * client.connect();
 * ```
 */
export function connectA2a(options: A2aClientOptions): A2aTransport {
  const link = new A2aClientLink(options, resolveUrl(options.url));
  const { shell, outbox, tasks, harvester } = link;
  return {
    get contextId() {
      return tasks.contextId;
    },
    get taskId() {
      return tasks.taskId;
    },
    get protocolVersion() {
      return link.protocolVersion;
    },
    get a2uiVersion() {
      return link.a2uiVersion;
    },
    get lastEventId() {
      return harvester.sequence.last;
    },
    get status() {
      return shell.status.status;
    },
    get pendingMessages() {
      return outbox.pending;
    },
    events: shell.events,
    send(message: ClientMessage, metadata: ClientMessageMetadata, sendOptions: SendOptions = {}) {
      return link.enqueue({ kind: 'a2ui', message, metadata }, sendOptions);
    },
    sendText(text: string, sendOptions: SendOptions = {}) {
      return link.enqueue({ kind: 'text', text, metadata: link.latestMetadata }, sendOptions);
    },
    close: shell.close,
  };
}

/** The base URL with a trailing slash (relative `.well-known/…` resolves under it). */
function resolveUrl(url: string | URL): string {
  const location = (globalThis as { location?: { href?: string } }).location?.href;
  const absolute = new URL(String(url), location);
  if (!/\.json$/.test(absolute.pathname) && !absolute.pathname.endsWith('/'))
    absolute.pathname += '/';
  return absolute.toString();
}
