import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy.js';

/** Two upstreams that answer with their own name. */
const upstreams: Server[] = [];
let urls: string[] = [];

beforeAll(async () => {
  for (const name of ['a', 'b']) {
    const server = createServer((_request, response) => response.end(name));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    upstreams.push(server);
  }
  urls = upstreams.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await Promise.all(
    upstreams.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
});

const answers = async (proxy: RoundRobinProxy, path: string, times: number) => {
  const seen: string[] = [];
  for (let n = 0; n < times; n++) seen.push(await (await fetch(`${proxy.url}${path}`)).text());
  return seen;
};

describe('startRoundRobinProxy', () => {
  it('alternates between its targets', async () => {
    const proxy = await startRoundRobinProxy(urls);
    try {
      expect(await answers(proxy, '/x', 4)).toEqual(['a', 'b', 'a', 'b']);
    } finally {
      await proxy.close();
    }
  });

  it('pins the requests of one affinity key to one target, and moves them off a disabled one', async () => {
    const proxy = await startRoundRobinProxy(urls, {
      affinity: (path) => path.match(/^\/sticky\/[^/?]+/)?.[0],
    });
    try {
      const [first] = await answers(proxy, '/sticky/one?n=1', 1);
      expect(await answers(proxy, '/sticky/one/more?n=2', 3)).toEqual([first, first, first]);
      // Other paths still alternate around it.
      const others = await answers(proxy, '/other', 2);
      expect(new Set(others)).toEqual(new Set(['a', 'b']));
      proxy.setEnabled(first === 'a' ? 0 : 1, false);
      const [moved] = await answers(proxy, '/sticky/one', 1);
      expect(moved).not.toBe(first);
      expect(await answers(proxy, '/sticky/one', 2)).toEqual([moved, moved]);
    } finally {
      await proxy.close();
    }
  });
});
