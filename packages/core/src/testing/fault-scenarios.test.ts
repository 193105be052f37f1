import { describe, expect, it } from 'vitest';
import { A2uiClient } from '../client/a2ui-client.js';
import {
  createInMemoryTransport,
  type InMemoryTransport,
} from '../transport/in-memory-transport.js';
import {
  CHUNKED_EXCHANGE,
  createChunkedAgent,
  createChurnAgent,
  createFloodAgent,
  runChunkedExchange,
  runInBatches,
  runLinkResetTrials,
} from './fault-scenarios.js';
import { recordTransport } from './transport-recorder.js';

const FAST = { initialDelayMs: 1, maxDelayMs: 5, minRetryMs: 1 } as const;

describe('the chunked exchange', () => {
  it('streams every value once, in order, asking for each chunk once', async () => {
    const chunked = createChunkedAgent();
    const transport = createInMemoryTransport({ agent: chunked.agent });
    const client = new A2uiClient({ transport });
    const progress: number[] = [];
    const seen = await runChunkedExchange(client, (received) => progress.push(received));
    expect(seen).toEqual(Array.from({ length: CHUNKED_EXCHANGE.messages }, (_, index) => index));
    expect(progress.at(-1)).toBe(CHUNKED_EXCHANGE.messages);
    expect(chunked.connects()).toBe(1);
    expect(chunked.requests.get(transport.connectionId!)).toEqual([
      50, 100, 150, 200, 250, 300, 350, 400, 450,
    ]);
    await client.close();
  });

  it('survives link resets at seeded points, and counts them', async () => {
    const chunked = createChunkedAgent();
    const started: number[] = [];
    const closing: string[] = [];
    const drops = await runLinkResetTrials({
      chunked,
      trials: 3,
      seed: 7,
      async open() {
        const transport: InMemoryTransport = createInMemoryTransport({
          agent: chunked.agent,
          reconnect: FAST,
        });
        // A network comes back on its own schedule: here, on the next macrotask.
        const proxy = {
          drop() {
            transport.drop();
            setTimeout(() => void transport.reconnect(), 0);
          },
          close: async () => {},
        };
        return { transport, proxy };
      },
      onStart: ({ random }) => started.push(random()),
      beforeClose: ({ transport }) => {
        closing.push(transport.connectionId!);
      },
    });
    expect(drops).toBeGreaterThanOrEqual(3);
    expect(started).toHaveLength(3);
    expect(closing).toHaveLength(3);
    expect(chunked.connects()).toBe(3);
  });
});

describe('createChurnAgent and runInBatches', () => {
  it('counts connects and disconnect reasons while connections come and go, a batch at a time', async () => {
    const churn = createChurnAgent();
    let running = 0;
    let most = 0;
    await runInBatches(7, 3, async () => {
      running++;
      most = Math.max(most, running);
      const transport = createInMemoryTransport({ agent: churn.agent });
      const recording = recordTransport(transport);
      await recording.until(() => recording.messages().length === 2);
      await transport.close();
      running--;
    });
    expect(most).toBe(3);
    expect(churn.connects()).toBe(7);
    expect(churn.reasons()).toEqual({ 'client-closed': 7 });
  });

  it('runs every index once, batch after batch', async () => {
    const order: number[] = [];
    await runInBatches(5, 2, async (index) => {
      order.push(index);
    });
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('createFloodAgent', () => {
  it('streams count updates of the payload to its connection, then says so', async () => {
    const flood = createFloodAgent(5, 'abc');
    const transport = createInMemoryTransport({ agent: flood.agent });
    const recording = recordTransport(transport);
    await flood.sent;
    await recording.until(() => recording.messages().length === 6);
    expect(flood.connection()?.id).toBe(transport.connectionId);
    expect(recording.messages().at(-1)).toMatchObject({
      updateDataModel: { path: '/blob', value: '4:abc' },
    });
    await transport.close();
  });
});
