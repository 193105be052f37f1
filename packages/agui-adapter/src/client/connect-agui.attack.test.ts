/**
 * A bad AG-UI endpoint against `connectAgUi`'s client link: 429 and 500 with `Retry-After`, a run
 * cut in the middle of an event, a run that stalls after its first bytes, a 50 MB event, and a
 * run whose events name another thread. The link neither crashes nor hangs: it retries or catches
 * up, the page's surface arrives, no internal exception text reaches the status, and close
 * settles. The real server on 127.0.0.1 port 0 behind fault-injecting middleware.
 */
import { type A2uiAgent, A2uiClient, BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { waitForClient } from '@a2ui-ts/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { FAST_RECONNECT, startTestServer, type TestServer } from '../../test/harness.js';
import { connectAgUi } from './connect-agui.js';

const INTERNAL_TEXT = /Cannot read propert|is not a function|is not iterable|\n\s+at /;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const agent: A2uiAgent = {
  onConnect: (connection) =>
    connection.send({
      version: 'v0.9',
      createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
    }),
};

async function serve(configure: Parameters<typeof startTestServer>[0]['configure']) {
  const server: TestServer = await startTestServer({ agent, mode: 'state', configure });
  closers.push(() => server.close());
  return server;
}

function connect(url: string, extra: Partial<Parameters<typeof connectAgUi>[0]> = {}) {
  const transport = connectAgUi({ url, reconnect: FAST_RECONNECT, ...extra });
  const client = new A2uiClient({ transport });
  closers.push(() => client.close());
  const reasons: string[] = [];
  client.subscribe((event) => {
    if (event.type === 'status' && event.reason) reasons.push(event.reason);
  });
  void client.connect().catch(() => {});
  return { client, transport, reasons };
}

const surfaceArrives = (client: A2uiClient) =>
  waitForClient(client, () => client.processor.getSurface('s') !== undefined, 'the surface');

/** The body of a run, once it has been read, as text. */
async function textOf(response: Response): Promise<string> {
  return new TextDecoder().decode(await response.arrayBuffer());
}

describe('connectAgUi against an endpoint that misbehaves', () => {
  for (const status of [429, 500] as const) {
    it(`retries a ${status} with Retry-After and then opens`, async () => {
      let refusals = 2;
      const server = await serve((parent) =>
        parent.use('/agent', async (c, next) => {
          if (refusals-- > 0)
            return c.text('<html>TypeError: x is not a function</html>', status, {
              'Retry-After': '0',
            });
          return next();
        }),
      );
      const { client, transport, reasons } = connect(server.url);
      await surfaceArrives(client);
      expect(transport.runs).toBeGreaterThanOrEqual(3);
      expect(client.status).toBe('open');
      for (const reason of reasons) expect(reason).not.toMatch(INTERNAL_TEXT);
    });
  }

  it('catches up a run cut in the middle of an event', async () => {
    let cuts = 1;
    const server = await serve((parent) =>
      parent.use('/agent', async (c, next) => {
        await next();
        if (cuts-- <= 0) return;
        const text = await textOf(c.res);
        // Half of the stream, ending inside an event's JSON, then the connection ends.
        const half = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
        c.res = new Response(half, { status: 200, headers: c.res.headers });
      }),
    );
    const { client, reasons } = connect(server.url);
    await surfaceArrives(client);
    for (const reason of reasons) expect(reason).not.toMatch(INTERNAL_TEXT);
  });

  it('gives up on a run that stalls after its first bytes, and catches up', async () => {
    let stalls = 1;
    const server = await serve((parent) =>
      parent.use('/agent', async (_c, next) => {
        if (stalls-- <= 0) return next();
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('data: {"type":"RUN_STA'));
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      }),
    );
    const { client, reasons } = connect(server.url, { idleTimeoutMs: 300 });
    await surfaceArrives(client);
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(reason).not.toMatch(INTERNAL_TEXT);
  });

  it('survives a 50 MB event before the run and still renders the surface', async () => {
    let floods = 1;
    const server = await serve((parent) =>
      parent.use('/agent', async (c, next) => {
        await next();
        if (floods-- <= 0) return;
        const text = await textOf(c.res);
        const huge = `data: ${JSON.stringify({ type: 'CUSTOM', name: 'flood', value: 'x'.repeat(50 * 1024 * 1024) })}\n\n`;
        // After RUN_STARTED (the first event), before the rest.
        const cut = text.indexOf('\n\n') + 2;
        c.res = new Response(text.slice(0, cut) + huge + text.slice(cut), {
          status: 200,
          headers: c.res.headers,
        });
      }),
    );
    const { client, reasons } = connect(server.url);
    await surfaceArrives(client);
    for (const reason of reasons) expect(reason).not.toMatch(INTERNAL_TEXT);
  });

  it("does not apply a run's events that name another thread", async () => {
    let swaps = 2;
    const server = await serve((parent) =>
      parent.use('/agent', async (c, next) => {
        const input = (await c.req.raw.clone().json()) as { threadId: string };
        await next();
        if (swaps-- <= 0) return;
        const text = await textOf(c.res);
        c.res = new Response(text.replaceAll(input.threadId, 'intruder-thread'), {
          status: 200,
          headers: c.res.headers,
        });
      }),
    );
    const { client, reasons, transport } = connect(server.url);
    const surfaces: number[] = [];
    client.subscribe(() => {
      if (client.processor.getSurface('s') !== undefined) surfaces.push(transport.runs);
    });
    await surfaceArrives(client);
    // The two answers for the intruder thread were dropped: the surface came with the third run.
    expect(surfaces[0]).toBe(3);
    expect(reasons.filter((reason) => /another thread/.test(reason))).toHaveLength(2);
    for (const reason of reasons) expect(reason).not.toMatch(INTERNAL_TEXT);
    expect(client.status).toBe('open');
  });
});
