/**
 * Test helper: an `A2uiClient` wired to an agent through core's in-memory transport (JSON text
 * crosses as on a wire), recording every batch the client applied and what it made of it.
 */
import {
  type A2uiAgent,
  A2uiClient,
  type ClientError,
  createInMemoryTransport,
  type InMemoryTransport,
  type ProcessResult,
} from '@a2ui-ts/core';
import { waitForClient } from '@a2ui-ts/core/testing';

/** A connected client and what it received. */
export interface ConnectedClient {
  client: A2uiClient;
  transport: InMemoryTransport;
  /** Every batch the client applied, with its result, in order. */
  received: Array<{ input: unknown; result: ProcessResult }>;
  /** Every error the client raised while applying messages (must stay empty). */
  errors: ClientError[];
  until(condition: () => boolean, describe?: string): Promise<void>;
  data(surfaceId: string, path?: string): unknown;
  componentIds(surfaceId: string): string[];
  surfaceIds(): string[];
  close(): Promise<void>;
}

export async function connectClient(agent: A2uiAgent): Promise<ConnectedClient> {
  const transport = createInMemoryTransport({ agent });
  const client = new A2uiClient({ transport, locale: 'en-US' });
  const received: ConnectedClient['received'] = [];
  const errors: ClientError[] = [];
  client.processor.onError((error) => errors.push(error));
  client.subscribe((event) => {
    if (event.type === 'received') received.push({ input: event.input, result: event.result });
  });
  void client.connect().catch(() => {});
  await waitForClient(client, () => client.status === 'open', 'the link');
  return {
    client,
    transport,
    received,
    errors,
    until: (condition, describe) => waitForClient(client, condition, describe),
    data: (surfaceId, path = '/') => client.processor.getSurface(surfaceId)?.dataModel.get(path),
    componentIds: (surfaceId) =>
      [...(client.processor.getSurface(surfaceId)?.components.values() ?? [])].map(
        (record) => record.id,
      ),
    surfaceIds: () => client.processor.getSurfaces().map((surface) => surface.surfaceId),
    close: () => client.close(),
  };
}
