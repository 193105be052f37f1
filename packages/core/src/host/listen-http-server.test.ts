import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openSlowHeaderClients } from '../testing/node/slow-header-clients.js';
import { type CreateAdaptorServer, listenHttpServer, serveFetchApp } from './listen-http-server.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const listener of opened.splice(0)) await listener.close();
});

/** A minimal fetch adapter on `node:http` (what `@hono/node-server`'s `createAdaptorServer` is). */
const adaptor: CreateAdaptorServer<Server> = ({ fetch, hostname }) =>
  createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const answer = await fetch(new Request(`http://${hostname}${request.url}`));
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (!answer.body) return response.end();
    const reader = answer.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return response.end();
      response.write(value);
    }
  });

/** Reads a response as raw text until the server ends the socket. */
function readUntilClosed(port: number, path: string, onData: (text: string) => void) {
  return new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
      onData(text);
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(text));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

describe('listenHttpServer', () => {
  it('listens on 127.0.0.1 and a free port by default, with the scheme asked for', async () => {
    const plain = await listenHttpServer(createServer((_q, r) => r.end('hi')));
    opened.push(plain);
    expect(plain.url).toBe(`http://127.0.0.1:${plain.port}`);
    expect(plain.port).toBeGreaterThan(0);
    expect(await (await fetch(plain.url)).text()).toBe('hi');

    const socketOnly = await listenHttpServer(createServer(), { scheme: 'ws' });
    opened.push(socketOnly);
    expect(socketOnly.url).toBe(`ws://127.0.0.1:${socketOnly.port}`);
  });

  it('takes a burst of 1,000 connections while its event loop is busy without dropping a SYN', async () => {
    const listener = await listenHttpServer(createServer());
    opened.push(listener);
    // The loop is busy (this test) while 1,000 clients connect: the kernel holds what it completes
    // until the server accepts. Beyond the backlog it drops SYNs, whose clients retry seconds later.
    const sockets: Socket[] = [];
    for (let index = 0; index < 1_000; index++) {
      const socket = connect(listener.port, '127.0.0.1');
      socket.on('error', () => {});
      sockets.push(socket);
    }
    // The connects are issued on the next tick; the server accepts only once I/O is polled.
    await new Promise((resolve) => setTimeout(resolve, 0));
    // `ss` runs synchronously, so the server has still accepted none of them.
    const waiting = execFileSync('ss', [
      '-Htn',
      'state',
      'syn-sent',
      'dst',
      `127.0.0.1:${listener.port}`,
    ]).toString();
    for (const socket of sockets) socket.destroy();
    expect(waiting.split('\n').filter(Boolean)).toEqual([]);
  });

  it('rejects with the server’s error when the port is taken', async () => {
    const first = await listenHttpServer(createServer());
    opened.push(first);
    await expect(listenHttpServer(createServer(), { port: first.port })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });

  it('close() stops accepting, runs beforeCloseSockets, then ends the sockets left; once', async () => {
    const steps: string[] = [];
    let held: ServerResponse | undefined;
    let answered: () => void = () => {};
    const answering = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const listener = await listenHttpServer(
      createServer((_request, response) => {
        held = response;
        response.writeHead(200);
        response.write('open\n');
        answered();
      }),
      {
        beforeCloseSockets: async () => {
          steps.push(`before (listening: ${listener.server.listening})`);
          await new Promise((written) => held?.write('last\n', written));
        },
      },
    );
    const read = readUntilClosed(listener.port, '/', () => {});
    await answering;
    const [first, second] = [listener.close(), listener.close()];
    expect(second).toBe(first);
    await first;
    steps.push('closed');
    expect(steps).toEqual(['before (listening: false)', 'closed']);
    expect(await read).toContain('last\n');
  });
});

describe('serveFetchApp', () => {
  it('serves the app, and on close lets its streams write their last event before the sockets go', async () => {
    let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
    const encoder = new TextEncoder();
    const app = {
      fetch: () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              stream = controller;
              controller.enqueue(encoder.encode('event: connected\n\n'));
            },
          }),
        ),
      close() {
        stream?.enqueue(encoder.encode('event: close\n\n'));
      },
    };
    const listener = await serveFetchApp(app, adaptor, { hostname: '127.0.0.1' });
    expect(listener.url).toBe(`http://127.0.0.1:${listener.port}`);
    let connected: () => void = () => {};
    const ready = new Promise<void>((resolve) => {
      connected = resolve;
    });
    const read = readUntilClosed(listener.port, '/sse', (text) => {
      if (text.includes('event: connected')) connected();
    });
    await ready;
    await listener.close();
    expect(await read).toContain('event: close');
    expect(listener.server.listening).toBe(false);
  });
});

describe('request timeouts (slowloris)', () => {
  const served = () => createServer((_request, response) => response.end('served'));

  it('cuts clients that trickle their headers by default, while a normal client is served', async () => {
    const listener = await listenHttpServer(served());
    opened.push(listener);
    const slow = openSlowHeaderClients(listener.port, { sockets: 3 });
    try {
      expect(await (await fetch(listener.url)).text()).toBe('served');
      // Node's own defaults (60 s for the headers, checked every 30 s) keep them past this bound.
      const answers = await slow.closedWithin(45_000);
      expect(answers).toEqual(Array(3).fill(expect.stringMatching(/^HTTP\/1\.1 408 /)));
      expect(await (await fetch(listener.url)).text()).toBe('served');
    } finally {
      slow.destroy();
    }
  });

  it('takes its bounds from the options, and serveFetchApp passes them on', async () => {
    const listener = await serveFetchApp({ fetch: () => new Response('fetched') }, adaptor, {
      headersTimeoutMs: 300,
      requestTimeoutMs: 1_000,
      keepAliveTimeoutMs: 200,
      timeoutCheckIntervalMs: 50,
    });
    opened.push(listener);
    expect(listener.server.headersTimeout).toBe(300);
    expect(listener.server.requestTimeout).toBe(1_000);
    expect(listener.server.keepAliveTimeout).toBe(200);
    const slow = openSlowHeaderClients(listener.port, { sockets: 3, byteIntervalMs: 20 });
    try {
      expect(await (await fetch(listener.url)).text()).toBe('fetched');
      expect(await slow.closedWithin(20_000)).toHaveLength(3);
    } finally {
      slow.destroy();
    }
  });

  it('refuses timeouts out of range before listening', async () => {
    await expect(listenHttpServer(served(), { headersTimeoutMs: -1 })).rejects.toThrow(
      'headersTimeoutMs must be an integer of at least 0',
    );
    await expect(
      listenHttpServer(served(), { headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 }),
    ).rejects.toThrow('headersTimeoutMs must be at most requestTimeoutMs.');
    await expect(listenHttpServer(served(), { timeoutCheckIntervalMs: 0 })).rejects.toThrow(
      'timeoutCheckIntervalMs',
    );
  });
});
