/**
 * Test support: a `ClientTransport` that records what the client sends and delivers nothing. Not
 * part of the public API.
 */
import type { ClientMessage, ClientMessageMetadata } from '../protocol/messages.js';
import type { ClientTransport } from '../transport/client-transport.js';

/**
 * A transport whose `sent` lists every message handed to it, with its metadata, in order. It
 * carries client messages of every version unless `clientMessageVersions` says otherwise.
 */
export function createRecordingTransport(
  clientMessageVersions: readonly string[] = ['v0.8', 'v0.9', 'v0.9.1', 'v1.0'],
): ClientTransport & {
  sent: Array<{ message: ClientMessage; metadata: ClientMessageMetadata }>;
} {
  const sent: Array<{ message: ClientMessage; metadata: ClientMessageMetadata }> = [];
  return {
    clientMessageVersions,
    sent,
    async *events() {},
    async send(message, metadata) {
      sent.push({ message, metadata });
    },
    async close() {},
  };
}
