/**
 * Version negotiation over SSE (`docs/wire-formats.md`, "SSE + JSON-RPC"): the offer is the
 * `a2uiVersions` query parameter or the `A2UI-Versions` header, the answer `a2uiVersion` in the
 * `connected` event — against a real server on port 0, with an old client (no offer), the default
 * client, and a v1.0-only client against a v0.9-only server.
 */
import { A2uiClient } from '@a2ui-ts/core';
import { createNegotiationAgent, greetOver } from '@a2ui-ts/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream } from '../test/event-stream-reader.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import type { SseJsonRpcServerOptions } from './server/create-sse-json-rpc-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Partial<SseJsonRpcServerOptions> = {}) {
  const recorder = createNegotiationAgent();
  server = await startTestServer({ agent: recorder.agent, ...options });
  return recorder;
}

describe('SSE version negotiation', () => {
  it('serves a client that offers nothing exactly as before (no a2uiVersion, v0.9 messages)', async () => {
    const recorder = await start();
    const stream = await openEventStream(`${server!.node.url}/sse`);
    const connected = await stream.next((event) => event.event === 'connected');
    expect(Object.keys(JSON.parse(connected.data))).toEqual([
      'connectionId',
      'resumed',
      'replayed',
    ]);
    const first = await stream.next((event) => event.event === undefined);
    expect(JSON.parse(first.data).version).toBe('v0.9');
    expect(recorder.negotiated).toEqual([undefined]);
    stream.close();
  });

  it('answers the offer in the connected event, from the query or the header', async () => {
    const recorder = await start({ a2uiVersions: ['v0.9', 'v1.0'] });
    const byQuery = await openEventStream(`${server!.node.url}/sse?a2uiVersions=v1.0,v0.9`);
    const connected = await byQuery.next((event) => event.event === 'connected');
    expect(JSON.parse(connected.data)).toMatchObject({ resumed: false, a2uiVersion: 'v0.9' });
    byQuery.close();
    const byHeader = await openEventStream(`${server!.node.url}/sse`, {
      headers: { 'A2UI-Versions': 'v1.0' },
    });
    const answer = await byHeader.next((event) => event.event === 'connected');
    expect(JSON.parse(answer.data).a2uiVersion).toBe('v1.0');
    const first = await byHeader.next((event) => event.event === undefined);
    expect(JSON.parse(first.data).version).toBe('v1.0');
    byHeader.close();
    expect(recorder.negotiated).toEqual([['v0.9', 'v1.0'], ['v1.0']]);
  });

  it('picks v1.0 when both speak it, and the agent streams v1.0 end to end', async () => {
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
    const response = await fetch(`${server!.node.url}/sse?a2uiVersions=v1.0`);
    expect(response.status).toBe(406);
    expect(await response.json()).toEqual({
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
    expect(server!.app.stats().sessions).toBe(0);
  });

  it('refuses a malformed offer with 400', async () => {
    await start();
    for (const [query, headers] of [
      ['?a2uiVersions=1.0', {}],
      ['?a2uiVersions=', {}],
      ['?a2uiVersions=v1.0', { 'A2UI-Versions': 'v0.9' }],
    ] as const) {
      const response = await fetch(`${server!.node.url}/sse${query}`, { headers });
      expect(response.status, query).toBe(400);
      expect((await response.json()).error.code).toBe('VALIDATION_FAILED');
    }
  });
});
