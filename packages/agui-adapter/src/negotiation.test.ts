/**
 * Version negotiation over AG-UI (`docs/wire-formats.md`, "AG-UI"): the client offers
 * `forwardedProps.a2uiVersions`, the server answers `state.a2uiVersion` (this adapter carries
 * v1.0 and v0.9); a run that shares none is refused with HTTP 406. Real server on port 0, the real
 * `@ag-ui/client` (with its verifier) and `connectAgUi`.
 */
import { A2uiClient } from '@a2ui-ts/core';
import { createNegotiationAgent, greetOver } from '@a2ui-ts/core/testing';
import { HttpAgent } from '@ag-ui/client';
import { describe, expect, it } from 'vitest';
import { FAST_RECONNECT, useTestServers } from '../test/harness.js';
import { runPeer } from '../test/peers.js';
import { connectAgUi } from './client/connect-agui.js';

const start = useTestServers();

describe('AG-UI version negotiation', () => {
  it('serves a run that offers nothing exactly as before (no a2uiVersion in state)', async () => {
    const recorder = createNegotiationAgent();
    const server = await start({ agent: recorder.agent });
    const agent = new HttpAgent({ url: server.url, threadId: 'old-client' });
    const run = await runPeer(agent);
    expect(run.failure).toBeUndefined();
    expect(agent.state).not.toHaveProperty('a2uiVersion');
    expect(recorder.negotiated).toEqual([undefined]);
  });

  it('answers the offer in state before any surface, and the agent sees it', async () => {
    const recorder = createNegotiationAgent();
    const server = await start({ agent: recorder.agent });
    const agent = new HttpAgent({ url: server.url, threadId: 'new-client' });
    const run = await runPeer(agent, { forwardedProps: { a2uiVersions: ['v1.0', 'v0.9'] } });
    expect(run.failure).toBeUndefined();
    const stateEvents = run.events.filter((event) => event.type.startsWith('STATE_'));
    expect(stateEvents[0]).toMatchObject({
      type: 'STATE_DELTA',
      delta: [{ op: 'add', path: '/a2uiVersion', value: 'v1.0' }],
    });
    expect(agent.state).toMatchObject({ a2uiVersion: 'v1.0' });
    expect(recorder.negotiated).toEqual([['v1.0', 'v0.9']]);
  });

  it('refuses a v1.0-only client with 406 NOT_SUPPORTED when the server speaks v0.9 only', async () => {
    const recorder = createNegotiationAgent();
    const server = await start({ agent: recorder.agent, a2uiVersions: ['v0.9'] });
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        threadId: 't',
        runId: 'r',
        messages: [],
        tools: [],
        context: [],
        state: {},
        forwardedProps: { a2uiVersions: ['v1.0'] },
      }),
    });
    expect(response.status).toBe(406);
    expect(await response.json()).toEqual({
      error: {
        code: 'NOT_SUPPORTED',
        message: 'No A2UI version in common: the client offers v1.0; this server speaks v0.9.',
        a2uiVersions: ['v0.9'],
      },
    });
    const client = new A2uiClient({
      transport: connectAgUi({
        url: server.url,
        offeredVersions: ['v1.0'],
        reconnect: FAST_RECONNECT,
      }),
    });
    await expect(client.connect()).rejects.toMatchObject({ code: 'NOT_SUPPORTED' });
    expect(recorder.negotiated).toEqual([]);
  });

  it('connectAgUi offers every version and gets v1.0', async () => {
    const recorder = createNegotiationAgent();
    const server = await start({ agent: recorder.agent });
    const transport = connectAgUi({ url: server.url, reconnect: FAST_RECONNECT });
    expect(await greetOver(transport)).toEqual({
      protocolVersion: 'v1.0',
      surfaceVersion: 'v1.0',
      text: 'Speaking v1.0',
    });
    expect(recorder.negotiated).toEqual([['v1.0', 'v0.9']]);
  });

  it('an old connectAgUi (v0.9 only) gets v0.9, unchanged', async () => {
    const recorder = createNegotiationAgent();
    const server = await start({ agent: recorder.agent });
    const transport = connectAgUi({
      url: server.url,
      offeredVersions: ['v0.9'],
      reconnect: FAST_RECONNECT,
    });
    expect(await greetOver(transport)).toEqual({
      protocolVersion: 'v0.9',
      surfaceVersion: 'v0.9',
      text: 'Speaking v0.9',
    });
    expect(recorder.negotiated).toEqual([['v0.9']]);
  });
});
