/**
 * Version negotiation over WebSocket subprotocols (`docs/wire-formats.md`, "WebSocket"): against
 * a real server on port 0, an old client that offers only `a2ui.v0.9`, a bare `ws` client, the
 * default client (all four versions) and a v1.0-only client against a v0.9-only server.
 */
import { A2uiClient } from '@a2ui-ts/core';
import { createNegotiationAgent, greetOver } from '@a2ui-ts/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestServer, type TestServer } from '../test/harness.js';
import { openRawSocket } from '../test/raw-socket.js';
import { connectWs } from './client/connect-ws.js';
import { createWsServer, type WsServerOptions } from './server/create-ws-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Partial<WsServerOptions> = {}) {
  const recorder = createNegotiationAgent();
  server = await startTestServer({ agent: recorder.agent, ...options });
  return recorder;
}

describe('WebSocket version negotiation', () => {
  it('serves an old client (it offers only a2ui.v0.9) exactly as before: v0.9 frames', async () => {
    const recorder = await start();
    const socket = openRawSocket(`${server!.url}/ws`, { protocols: ['a2ui.v0.9'] });
    const frames = await socket.frame(3);
    expect(socket.ws.protocol).toBe('a2ui.v0.9');
    expect(JSON.parse(frames[0]!)).toMatchObject({ type: 'connected', resumed: false });
    expect(frames.slice(1).map((frame) => JSON.parse(frame).version)).toEqual(['v0.9', 'v0.9']);
    expect(recorder.negotiated).toEqual([['v0.9']]);
    socket.close();
  });

  it('serves a client that offers no subprotocol as before negotiation', async () => {
    const recorder = await start();
    const socket = openRawSocket(`${server!.url}/ws`, { protocols: [] });
    await socket.frame(3);
    expect(socket.ws.protocol).toBe('');
    expect(recorder.negotiated).toEqual([undefined]);
    socket.close();
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

  it('selects the server preference among the offered subprotocols', async () => {
    const recorder = await start({ a2uiVersions: ['v0.9', 'v1.0'] });
    const socket = openRawSocket(`${server!.url}/ws`, { protocols: ['a2ui.v1.0', 'a2ui.v0.9'] });
    await socket.frame(3);
    expect(socket.ws.protocol).toBe('a2ui.v0.9');
    expect(recorder.negotiated).toEqual([['v0.9', 'v1.0']]);
    socket.close();
  });

  it('refuses a v1.0-only client at the handshake with 406 NOT_SUPPORTED', async () => {
    const recorder = await start({ a2uiVersions: ['v0.9'] });
    const socket = openRawSocket(`${server!.url}/ws`, { protocols: ['a2ui.v1.0'] });
    expect(await socket.opened).toBe(false);
    const refusal = await socket.refusal;
    expect(refusal.status).toBe(406);
    expect(JSON.parse(refusal.body)).toEqual({
      error: {
        code: 'NOT_SUPPORTED',
        message: 'No A2UI version in common: the client offers v1.0; this server speaks v0.9.',
        a2uiVersions: ['v0.9'],
      },
    });

    const client = new A2uiClient({ transport: server!.connect({ offeredVersions: ['v1.0'] }) });
    await expect(client.connect()).rejects.toMatchObject({
      code: 'NOT_SUPPORTED',
      message: 'The server speaks none of the offered A2UI versions (v1.0): HTTP 406.',
      data: { httpStatus: 406 },
    });
    expect(recorder.negotiated).toEqual([]);
    expect(server!.a2ui.stats().sessions).toBe(0);
  });

  it('refuses a malformed version subprotocol with 400', async () => {
    await start();
    const socket = openRawSocket(`${server!.url}/ws`, { protocols: ['a2ui.v1'] });
    const refusal = await socket.refusal;
    expect(refusal.status).toBe(400);
    expect(JSON.parse(refusal.body).error.code).toBe('VALIDATION_FAILED');
  });

  it('refuses bad version options at once', () => {
    const url = 'ws://127.0.0.1:1';
    expect(() => connectWs({ url, WebSocket, offeredVersions: [] })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
    expect(() => connectWs({ url, WebSocket, offeredVersions: ['1.0'] })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
    expect(() => createWsServer({ agent: {}, a2uiVersions: ['v9.9'] })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });
});
