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
  type RendererFunction,
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

/**
 * @param options - `offeredVersions`: what the client offers. @default ['v0.9'] — the scripted
 *   models write v0.9 and most tests read it back as written; the v1.0 tests offer v1.0.
 *   `rendererFunctions`: functions the page exposes to the agent. @default none
 */
export async function connectClient(
  agent: A2uiAgent,
  options: { offeredVersions?: readonly string[]; rendererFunctions?: RendererFunction[] } = {},
): Promise<ConnectedClient> {
  const transport = createInMemoryTransport({
    agent,
    offeredVersions: options.offeredVersions ?? ['v0.9'],
  });
  const client = new A2uiClient({
    transport,
    locale: 'en-US',
    rendererFunctions: options.rendererFunctions,
  });
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
