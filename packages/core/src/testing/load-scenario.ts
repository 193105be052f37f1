/**
 * The load scenario of the streaming bindings' `load.test.ts`, written once: an agent streams
 * `messages` messages (a surface, then numbered updates) to every connection, in slices as an
 * agent producing output over time would; {@link untilLoadDelivered} waits until every client
 * has them all, and {@link expectLoadDelivered} checks each got them all, once, in order.
 * Runtime-neutral; requires vitest.
 */
import { expect } from 'vitest';
import type { A2uiAgent } from '../agent/agent.js';
import { yieldToIo } from '../host/yield-to-io.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ServerMessage } from '../protocol/messages.js';
import type { TransportRecording } from './transport-recorder.js';

/**
 * An agent that sends every connection `messages` messages: `createSurface` of `load`, then
 * `/n` set to 0, 1, … — yielding to I/O after every 10.
 */
export function createLoadAgent(messages: number): A2uiAgent {
  return {
    async onConnect(connection) {
      connection.send({
        version: 'v0.9',
        createSurface: { surfaceId: 'load', catalogId: BASIC_CATALOG_ID },
      });
      for (let index = 0; index < messages - 1; index++) {
        connection.send({
          version: 'v0.9',
          updateDataModel: { surfaceId: 'load', path: '/n', value: index },
        });
        if (index % 10 === 9) await yieldToIo();
      }
    },
  };
}

/**
 * Resolves once every recording holds `messages` `messages` events. Counts events instead of
 * parsing every message on every event, which would be the test's own quadratic cost.
 */
export async function untilLoadDelivered(
  recordings: readonly TransportRecording[],
  messages: number,
): Promise<void> {
  const count = (events: readonly { type: string }[]) =>
    events.reduce((sum, event) => sum + (event.type === 'messages' ? 1 : 0), 0);
  await Promise.all(
    recordings.map((recording) => recording.until((events) => count(events) >= messages)),
  );
}

/** Checks that every recording holds the stream of {@link createLoadAgent}: all of it, in order. */
export function expectLoadDelivered(
  recordings: readonly TransportRecording[],
  messages: number,
): void {
  const values = Array.from({ length: messages - 1 }, (_, index) => index);
  for (const recording of recordings) {
    const received = recording.messages() as ServerMessage[];
    expect(received).toHaveLength(messages);
    expect(received[0]).toHaveProperty('createSurface');
    expect(
      received
        .slice(1)
        .map((message) =>
          'updateDataModel' in message ? message.updateDataModel.value : undefined,
        ),
    ).toEqual(values);
  }
}
