import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { countActiveTimers, openStalledReader } from './stalled-reader.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('openStalledReader', () => {
  it('reads until the marker, then nothing, until resumed', async () => {
    let written = 0;
    let finish: () => void = () => {};
    const drained = new Promise<void>((resolve) => {
      finish = resolve;
    });
    server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.write('ready\n');
      // Write until the socket's buffers are full: nobody reads any more.
      const chunk = 'x'.repeat(64 * 1024);
      const pump = () => {
        while (written < 512) {
          written++;
          if (!response.write(chunk)) {
            response.once('drain', pump);
            return;
          }
        }
        response.end(finish);
      };
      pump();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const reader = await openStalledReader(
      port,
      'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
      'ready',
    );
    expect(reader.head).toContain('HTTP/1.1 200 OK');
    // The server cannot write it all while the reader is stalled: 32 MiB do not fit in buffers.
    expect(written).toBeLessThan(512);
    reader.resume();
    await drained;
    await reader.closed;
    expect(written).toBe(512);
  });
});

describe('countActiveTimers', () => {
  it('counts the timers this process holds', () => {
    const before = countActiveTimers();
    const timer = setTimeout(() => {}, 60_000);
    expect(countActiveTimers()).toBe(before + 1);
    clearTimeout(timer);
    expect(countActiveTimers()).toBe(before);
  });
});
