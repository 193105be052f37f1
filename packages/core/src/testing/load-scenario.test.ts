import { describe, expect, it } from 'vitest';
import { createInMemoryTransport } from '../transport/in-memory-transport.js';
import { createLoadAgent, expectLoadDelivered, untilLoadDelivered } from './load-scenario.js';
import { recordTransport } from './transport-recorder.js';

describe('the load scenario', () => {
  it('streams the surface and the numbered updates to every client, and checks them', async () => {
    const agent = createLoadAgent(25);
    const transports = Array.from({ length: 3 }, () => createInMemoryTransport({ agent }));
    const recordings = transports.map((transport) => recordTransport(transport));
    await untilLoadDelivered(recordings, 25);
    expectLoadDelivered(recordings, 25);
    expect(recordings[0]!.messages()[1]).toMatchObject({
      updateDataModel: { surfaceId: 'load', path: '/n', value: 0 },
    });
    await Promise.all(transports.map((transport) => transport.close()));
  });

  it('fails a client that missed a message', async () => {
    const transport = createInMemoryTransport({ agent: createLoadAgent(3) });
    const recording = recordTransport(transport);
    await untilLoadDelivered([recording], 3);
    expect(() => expectLoadDelivered([recording], 4)).toThrow();
    await transport.close();
  });
});
