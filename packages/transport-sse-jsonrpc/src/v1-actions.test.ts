/**
 * Actions in the negotiated version's shape over SSE + JSON-RPC (`docs/wire-formats.md`, "An
 * action"): a client that negotiated v1.0 names `"version": "v1.0"` in the params and keeps the
 * action's `userMessage`; the server reads that version, and refuses it from a connection that
 * negotiated v0.9. Real server on 127.0.0.1, the real client.
 */
import { A2uiClient } from '@a2ui-ts/core';
import { BOOK_ACTION, createV10ActionAgent } from '@a2ui-ts/core/testing';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream } from '../test/event-stream-reader.js';
import { connectSseJsonRpc } from './client/connect-sse-json-rpc.js';
import { serveSseJsonRpc } from './node.js';
import { createSseJsonRpcServer } from './server/create-sse-json-rpc-server.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function start() {
  const { agent, actions } = createV10ActionAgent();
  const bodies: unknown[] = [];
  const app = createSseJsonRpcServer({ agent, keepAliveIntervalMs: 60_000 });
  const root = new Hono()
    .use('/a2ui/rpc', async (c, next) => {
      bodies.push(JSON.parse(await c.req.raw.clone().text()));
      await next();
    })
    .route('/a2ui', app);
  const node = await serveSseJsonRpc(root);
  closers.push(
    () => node.close(),
    () => app.close(),
  );
  return { base: `${node.url}/a2ui`, actions, bodies };
}

describe('SSE + JSON-RPC: actions in the negotiated version', () => {
  it('a v1.0 client names version v1.0 in the params and the agent gets the userMessage', async () => {
    const { base, actions, bodies } = await start();
    const client = new A2uiClient({ transport: connectSseJsonRpc({ url: base }) });
    closers.push(() => client.close());
    void client.connect().catch(() => {});
    await client.until(() => client.processor.getSurface('s') !== undefined, { timeoutMs: 10_000 });
    await client.dispatchAction('s', 'root');
    const request = bodies.find(
      (body) => (body as { method?: string }).method === 'a2ui.action',
    ) as { params: Record<string, unknown> };
    expect(request.params.version).toBe('v1.0');
    expect(request.params.action).toMatchObject({ name: 'book', userMessage: 'Book it' });
    expect(actions).toEqual([expect.objectContaining({ name: 'book', userMessage: 'Book it' })]);
  });

  it('refuses params.version v1.0 on a connection that negotiated v0.9, and reads v0.9 there as before', async () => {
    const { base, actions } = await start();
    const stream = await openEventStream(`${base}/sse`, {
      headers: { Accept: 'text/event-stream', 'A2UI-Versions': 'v0.9' },
    });
    closers.push(async () => stream.close());
    const { connectionId } = JSON.parse(
      (await stream.next((event) => event.event === 'connected')).data,
    );
    const action = BOOK_ACTION;
    const post = async (params: Record<string, unknown>) =>
      (
        await fetch(`${base}/rpc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: crypto.randomUUID(),
            method: 'a2ui.action',
            params: { connectionId, ...params },
          }),
        })
      ).json();
    const refused = await post({ version: 'v1.0', action: { ...action, userMessage: 'hi' } });
    expect(refused.error).toMatchObject({ code: -32602, data: { path: '/params/version' } });
    expect(refused.error.message).toContain('negotiated v0.9');
    expect(actions).toEqual([]);
    const accepted = await post({ action });
    expect(accepted.result).toMatchObject({ accepted: true });
    expect(actions).toHaveLength(1);
  });
});
