import { connect, createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientTransport } from '../../transport/client-transport.js';
import { createProxiedLinks } from './proxied-links.js';

let target: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (target ? target.close(() => resolve()) : resolve()));
  target = undefined;
});

/** A TCP echo server. */
async function echoServer(): Promise<number> {
  target = createServer((socket) => {
    socket.on('error', () => {});
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => target!.listen(0, '127.0.0.1', resolve));
  const address = target.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** Sends `ping` through the proxy on `port`: `'ping'` echoed, or `'reset'` when refused. */
function roundTrip(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => resolve('reset'));
    socket.on('close', () => resolve('reset'));
    socket.once('data', (data) => {
      resolve(data.toString());
      socket.destroy();
    });
    socket.write('ping');
  });
}

/** A stand-in transport that only remembers its URL and whether it was closed. */
const fakeTransport = (url: string) => {
  const transport = {
    url,
    closed: false,
    async close() {
      transport.closed = true;
    },
  };
  return transport as unknown as ClientTransport & { url: string; closed: boolean };
};

describe('createProxiedLinks', () => {
  it('gives each transport a proxy of its own, and cuts and mends its link alone', async () => {
    const links = createProxiedLinks(await echoServer());
    const first = await links.open(fakeTransport);
    const second = await links.open(fakeTransport);
    const [one, two] = [links.proxyOf(first)!, links.proxyOf(second)!];
    expect(first.url).toBe(one.url);
    expect(one.port).not.toBe(two.port);
    expect(await roundTrip(one.port)).toBe('ping');

    links.severLink(first);
    expect(await roundTrip(one.port)).toBe('reset');
    expect(await roundTrip(two.port)).toBe('ping');
    links.restoreLink(first);
    expect(await roundTrip(one.port)).toBe('ping');

    const order: string[] = [];
    await links.close(async () => {
      order.push(`server (transports closed: ${first.closed && second.closed})`);
    });
    expect(order).toEqual(['server (transports closed: true)']);
  });

  it('drops the open connections of one transport', async () => {
    const links = createProxiedLinks(await echoServer());
    const transport = await links.open(fakeTransport);
    const proxy = links.proxyOf(transport)!;
    const socket = connect(proxy.port, '127.0.0.1');
    socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => {
      socket.once('data', () => resolve());
      socket.write('hello');
    });
    expect(proxy.connections).toBe(1);
    links.dropLink(transport);
    await closed;
    await links.close(async () => {});
  });
});
