import { afterEach, describe, expect, it, vi } from 'vitest';
import { A2uiClient } from './a2ui-client.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('A2uiClient.until with timeoutMs', () => {
  it('rejects with TIMEOUT when the deadline passes first, and leaves no listener behind', async () => {
    vi.useFakeTimers();
    const client = new A2uiClient();
    const waiting = client.until(() => false, { timeoutMs: 500 });
    const settled = vi.fn();
    waiting.catch(settled);
    await vi.advanceTimersByTimeAsync(499);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(waiting).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves before the deadline and clears its timer', async () => {
    vi.useFakeTimers();
    const client = new A2uiClient();
    const waiting = client.until(() => client.processor.getSurfaces().length > 0, {
      timeoutMs: 500,
    });
    client.process({
      version: 'v0.9',
      createSurface: {
        surfaceId: 's',
        catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
      },
    });
    await expect(waiting).resolves.toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });
});
