/**
 * Actions in the negotiated version's shape over REST (`docs/wire-formats.md`, "REST"): a client
 * that negotiated v1.0 posts `"version": "v1.0"` beside the action, with its `userMessage`; the
 * server reads that version and refuses it from a connection that negotiated v0.9. Real server
 * on 127.0.0.1, the real client.
 */
import { A2uiClient } from '@a2ui-ts/core';
import { BOOK_ACTION, createV10ActionAgent } from '@a2ui-ts/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

const action = BOOK_ACTION;

let server: TestServer | undefined;
const clients: A2uiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server?.close();
  server = undefined;
});

async function start() {
  const { agent, actions } = createV10ActionAgent();
  const bodies: unknown[] = [];
  server = await startTestServer({
    agent,
    configure: (parent) =>
      parent.use('/action', async (c, next) => {
        bodies.push(JSON.parse(await c.req.raw.clone().text()));
        await next();
      }),
  });
  return { actions, bodies };
}

describe('REST: actions in the negotiated version', () => {
  it('a v1.0 client posts version v1.0 beside the action and the agent gets the userMessage', async () => {
    const { actions, bodies } = await start();
    const client = new A2uiClient({ transport: server!.connect() });
    clients.push(client);
    void client.connect().catch(() => {});
    await client.until(() => client.processor.getSurface('s') !== undefined, { timeoutMs: 10_000 });
    await client.dispatchAction('s', 'root');
    expect(bodies[0]).toMatchObject({
      version: 'v1.0',
      action: { name: 'book', userMessage: 'Book it' },
    });
    expect(actions).toEqual([expect.objectContaining({ name: 'book', userMessage: 'Book it' })]);
  });

  it('refuses version v1.0 on a connection that negotiated v0.9 (400 NOT_SUPPORTED), and reads v0.9 there', async () => {
    const { actions } = await start();
    const opened = await server!.post('/connect', {}, { 'A2UI-Versions': 'v0.9' });
    const { connectionId } = opened.body;
    const refused = await server!.post('/action', {
      connectionId,
      version: 'v1.0',
      action: { ...action, userMessage: 'hi' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'NOT_SUPPORTED' });
    expect(actions).toEqual([]);
    const accepted = await server!.post('/action', { connectionId, action });
    expect(accepted.status).toBe(200);
    expect(actions).toHaveLength(1);
  });
});
