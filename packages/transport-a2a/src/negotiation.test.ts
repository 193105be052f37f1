/**
 * Version negotiation over A2A (`docs/wire-formats.md`, "A2A"): the client requests the A2UI
 * extension URI of each version it reads (`A2A-Extensions` / `X-A2A-Extensions`,
 * `message.extensions`), the server activates the one it speaks and echoes it; a request that
 * shares none is refused in A2A's error shape with HTTP 406. Real server on port 0, raw wire and
 * `connectA2a`.
 */
import { A2uiClient } from '@a2ui-ts/core';
import { createNegotiationAgent, greetOver } from '@a2ui-ts/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { postRpc, readSse, v1SendBody } from '../test/agents.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { A2UI_EXTENSION_URI, a2uiExtensionUriOf } from './protocol/a2ui-extension.js';
import type { A2aServerOptions } from './server/create-a2a-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const V1 = { 'A2A-Version': '1.0' };
const URI = (version: string) => a2uiExtensionUriOf(version);

async function start(options: Partial<A2aServerOptions> = {}) {
  const recorder = createNegotiationAgent();
  server = await startTestServer({ agent: recorder.agent, ...options });
  return recorder;
}

/** The A2UI data parts of a streamed answer, in order. */
function a2uiData(frames: Awaited<ReturnType<typeof readSse>>): Record<string, unknown>[] {
  return frames.flatMap((frame) =>
    (frame.result?.statusUpdate?.status?.message?.parts ?? [])
      .filter((part: { mediaType?: string }) => part.mediaType === 'application/a2ui+json')
      .map((part: { data: Record<string, unknown> }) => part.data),
  );
}

describe('A2A version negotiation', () => {
  it('lists one A2UI extension per version the server speaks, in its preference order (v1.0 card JSON leaves out required: false)', async () => {
    await start({ a2uiVersions: ['v1.0', 'v0.9'] });
    const card = await (
      await fetch(`${server!.node.url}/.well-known/agent-card.json`, { headers: V1 })
    ).json();
    expect(card.capabilities.extensions).toEqual([
      {
        uri: URI('v1.0'),
        description: 'Streams A2UI v1.0 messages as data parts and accepts A2UI actions.',
        params: {
          supportedCatalogIds: ['https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json'],
          acceptsInlineCatalogs: false,
        },
      },
      {
        uri: A2UI_EXTENSION_URI,
        description: 'Streams A2UI v0.9 messages as data parts and accepts A2UI actions.',
        params: {
          supportedCatalogIds: ['https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json'],
          acceptsInlineCatalogs: false,
        },
      },
    ]);
  });

  it('serves an old client (it requests only the v0.9 URI) exactly as before', async () => {
    const recorder = await start();
    const response = await postRpc(
      `${server!.node.url}/`,
      v1SendBody('SendStreamingMessage', { parts: [{ text: 'hi' }] }),
      { ...V1, 'A2A-Extensions': A2UI_EXTENSION_URI },
    );
    expect(response.headers.get('a2a-extensions')).toBe(A2UI_EXTENSION_URI);
    expect(a2uiData(await readSse(response)).map((data) => data.version)).toEqual(['v0.9', 'v0.9']);
    expect(recorder.negotiated).toEqual([['v0.9']]);
  });

  it('activates the newest version both speak and the agent streams it (X-A2A-Extensions, v0.3)', async () => {
    const recorder = await start();
    const response = await postRpc(
      `${server!.node.url}/`,
      {
        jsonrpc: '2.0',
        id: 'req-1',
        method: 'message/stream',
        params: {
          message: {
            kind: 'message',
            messageId: crypto.randomUUID(),
            role: 'user',
            parts: [{ kind: 'text', text: 'hi' }],
          },
        },
      },
      { 'X-A2A-Extensions': `${URI('v0.9')}, ${URI('v1.0')}` },
    );
    expect(response.headers.get('x-a2a-extensions')).toBe(URI('v1.0'));
    await response.text();
    expect(recorder.negotiated).toEqual([['v1.0', 'v0.9']]);
  });

  it('refuses a v1.0-only client of a v0.9-only server with A2A’s error shape and HTTP 406', async () => {
    const recorder = await start({ a2uiVersions: ['v0.9'] });
    const response = await postRpc(
      `${server!.node.url}/`,
      v1SendBody('SendMessage', { parts: [{ text: 'hi' }], extensions: [URI('v1.0')] }),
      V1,
    );
    expect(response.status).toBe(406);
    const body = await response.json();
    // Byte for byte the example of docs/wire-formats.md ("A2A", "Versions").
    expect(JSON.stringify(body)).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32004,"message":"No A2UI version in common: the client offers v1.0; this server speaks v0.9.","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"UNSUPPORTED_OPERATION","domain":"a2a-protocol.org","metadata":{"a2uiCode":"NOT_SUPPORTED"}}]}}',
    );
    expect(recorder.negotiated).toEqual([]);

    const client = new A2uiClient({ transport: server!.connect({ offeredVersions: ['v1.0'] }) });
    await expect(client.connect()).rejects.toMatchObject({ code: 'NOT_SUPPORTED' });
  });

  it('connectA2a offers every version and gets v1.0 end to end', async () => {
    const recorder = await start();
    expect(await greetOver(server!.connect())).toMatchObject({
      surfaceVersion: 'v1.0',
      text: 'Speaking v1.0',
    });
    expect(recorder.negotiated).toEqual([['v1.0', 'v0.9.1', 'v0.9', 'v0.8']]);
  });

  it('reads v1.0 metadata names beside the older ones', async () => {
    const seen: unknown[] = [];
    server = await startTestServer({
      agent: {
        onInput(connection) {
          seen.push(connection.rendererCapabilities, connection.clientDataModel);
        },
      },
    });
    const response = await postRpc(
      `${server.node.url}/`,
      v1SendBody('SendMessage', {
        parts: [{ text: 'hi' }],
        extensions: [URI('v1.0')],
        metadata: {
          a2uiRendererCapabilities: { 'v1.0': { supportedCatalogIds: ['c'] } },
          a2uiRendererDataModel: { version: 'v1.0', surfaces: { s: { name: 'Ada' } } },
        },
      }),
      V1,
    );
    expect(response.status).toBe(200);
    expect(seen).toEqual([
      { 'v1.0': { supportedCatalogIds: ['c'] } },
      { version: 'v0.9', surfaces: { s: { name: 'Ada' } } },
    ]);
  });
});
