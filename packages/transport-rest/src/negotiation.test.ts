/**
 * Version negotiation over REST (`docs/wire-formats.md`, "REST"): `POST /connect` offers versions
 * with `?a2uiVersions=` or the `A2UI-Versions` header and the answer names `a2uiVersion` — against
 * a real server on port 0, with an old client (no offer), the default client, and a v1.0-only
 * client against a v0.9-only server.
 */
import { A2uiClient } from '@a2ui-ts/core';
import { createNegotiationAgent, greetOver } from '@a2ui-ts/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';
import type { RestServerOptions } from './server/create-rest-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Partial<RestServerOptions> = {}) {
  const recorder = createNegotiationAgent();
  server = await startTestServer({ agent: recorder.agent, ...options });
  return recorder;
}

describe('REST version negotiation', () => {
  it('serves a client that offers nothing exactly as before (no a2uiVersion, v0.9 messages)', async () => {
    const recorder = await start();
    const { status, body } = await server!.post('/connect', {});
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['connectionId', 'messages', 'seq', 'more']);
    expect(body.messages.map((message: { version: string }) => message.version)).toEqual([
      'v0.9',
      'v0.9',
    ]);
    expect(recorder.negotiated).toEqual([undefined]);
  });

  it('answers the offer with a2uiVersion, from the query or the header', async () => {
    const recorder = await start({ a2uiVersions: ['v0.9', 'v1.0'] });
    const byQuery = await server!.post('/connect?a2uiVersions=v1.0,v0.9', {});
    expect(byQuery.body).toMatchObject({ a2uiVersion: 'v0.9' });
    expect(Object.keys(byQuery.body).slice(0, 2)).toEqual(['connectionId', 'a2uiVersion']);
    const byHeader = await server!.post('/connect', {}, { 'A2UI-Versions': 'v1.0' });
    expect(byHeader.body.a2uiVersion).toBe('v1.0');
    expect(byHeader.body.messages[0].version).toBe('v1.0');
    expect(recorder.negotiated).toEqual([['v0.9', 'v1.0'], ['v1.0']]);
  });

  it('picks v1.0 when both speak it, and the agent answers in v1.0 end to end', async () => {
    const recorder = await start();
    expect(await greetOver(server!.connect())).toEqual({
      protocolVersion: 'v1.0',
      surfaceVersion: 'v1.0',
      text: 'Speaking v1.0',
    });
    expect(recorder.negotiated).toEqual([['v1.0', 'v0.9.1', 'v0.9', 'v0.8']]);
  });

  it('refuses a v1.0-only client of a v0.9-only server with 406 NOT_SUPPORTED', async () => {
    const recorder = await start({ a2uiVersions: ['v0.9'] });
    const refused = await server!.post('/connect?a2uiVersions=v1.0', {});
    expect(refused.status).toBe(406);
    expect(refused.body).toEqual({
      error: {
        code: 'NOT_SUPPORTED',
        message: 'No A2UI version in common: the client offers v1.0; this server speaks v0.9.',
        a2uiVersions: ['v0.9'],
      },
    });
    const client = new A2uiClient({ transport: server!.connect({ offeredVersions: ['v1.0'] }) });
    await expect(client.connect()).rejects.toMatchObject({
      code: 'NOT_SUPPORTED',
      data: { httpStatus: 406 },
    });
    expect(recorder.negotiated).toEqual([]);
  });

  it('refuses a malformed offer with 400', async () => {
    await start();
    const { status, body } = await server!.post('/connect?a2uiVersions=v1', {});
    expect(status).toBe(400);
    expect(body.error.code).toBe('VALIDATION_FAILED');
  });
});
