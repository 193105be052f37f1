/**
 * Test helper: an {@link A2uiClient} wired to an agent through core's in-memory transport, which
 * crosses JSON text exactly as a wire would.
 */
import {
  type A2uiAgent,
  A2uiClient,
  type ClientError,
  createInMemoryTransport,
  type InMemoryTransport,
} from '@a2ui-ts/core';
import { waitForClient } from '@a2ui-ts/core/testing';

/** A connected client, every error it processed, and helpers to read surfaces. */
export interface TestClient {
  client: A2uiClient;
  transport: InMemoryTransport;
  /** Errors the client raised while applying the agent's messages (should stay empty). */
  errors: ClientError[];
  /** Resolves once `condition()` holds (re-checked on every client event; no sleeps). */
  until(condition: () => boolean, describe?: string): Promise<void>;
  /** Data-model value of `surfaceId` at `path`, `undefined` when the surface does not exist. */
  data(surfaceId: string, path?: string): unknown;
  surfaceIds(): string[];
  close(): Promise<void>;
}

/**
 * Connects a fresh client to `agent` and waits until the first messages arrived.
 * `offeredVersions`: what the client offers. @default every version core speaks
 */
export async function connectTestClient(
  agent: A2uiAgent,
  options: { offeredVersions?: readonly string[] } = {},
): Promise<TestClient> {
  const transport = createInMemoryTransport({
    agent,
    ...(options.offeredVersions ? { offeredVersions: options.offeredVersions } : {}),
  });
  const client = new A2uiClient({ transport, locale: 'en-US' });
  const errors: ClientError[] = [];
  client.processor.onError((error) => errors.push(error));
  void client.connect();
  const until = (condition: () => boolean, describe?: string) =>
    waitForClient(client, condition, describe);
  const surfaceIds = () => client.processor.getSurfaces().map((surface) => surface.surfaceId);
  await until(() => surfaceIds().length > 0, 'the first surface');
  return {
    client,
    transport,
    errors,
    until,
    data(surfaceId, path = '/') {
      return client.processor.getSurface(surfaceId)?.dataModel.get(path);
    },
    surfaceIds,
    close: () => client.close(),
  };
}
