/**
 * v1.0 function calls on the REST wire: `docs/wire-formats.md` ("Function calls (v1.0)", REST)
 * shows the bytes; this test produces them against a real server on 127.0.0.1 and compares. Only
 * the random connection id is replaced by the one the document uses. REST is turn-based: the
 * renderer's answer is the next request, answered with the agent's turn that it continues.
 */
import { createWireFunctionAgent } from '@a2ui-ts/core/testing';
import { readWireTestBlocks } from '@a2ui-ts/core/testing/node';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Listening, listen } from '../test/listen.js';
import { createRestServer, type RestServer } from './server/create-rest-server.js';

const DOC_ID = 'k3yQ2m0JcN1xV8fR4tL6pA';
const wire = readWireTestBlocks(
  new URL('../../../docs/wire-formats.md', import.meta.url),
  'Function calls (v1.0)',
);
const block = (name: string) => wire.block(name).trimEnd();

let app: RestServer;
let node: Listening;
let base: string;
let connectionId: string;
const wireAgent = createWireFunctionAgent();

beforeAll(async () => {
  app = createRestServer({
    agent: wireAgent.agent,
    reconnectGraceMs: 60_000,
  });
  node = await listen({ fetch: new Hono().route('/a2ui', app).fetch, close: () => app.close() });
  base = `${node.url}/a2ui`;
  connectionId = (await (await post('/connect', '{}')).json()).connectionId;
});
afterAll(() => node.close());

function post(path: string, body: string, key?: string): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) },
    body: body.replaceAll(DOC_ID, connectionId),
  });
}
const text = async (response: Response) =>
  `${response.status} ${(await response.text()).replaceAll(connectionId, DOC_ID)}`;

describe('docs/wire-formats.md, Function calls (v1.0), REST', () => {
  it('POST /callAgentFunction is answered with the turn holding the agentFunctionResponse; a retransmission runs once', async () => {
    const request = block('rest-fn-call-agent-request');
    expect(await text(await post('/callAgentFunction', request, 'k-1'))).toBe(
      `200 ${block('rest-fn-call-agent-response')}`,
    );
    // Sent again under a new key: a client that lost the answer and retransmits the call.
    expect(await text(await post('/callAgentFunction', request, 'k-2'))).toBe(
      `200 ${block('rest-fn-call-agent-retransmitted-response')}`,
    );
    expect(wireAgent.suggestRuns()).toBe(1);
  });

  it('an action whose turn calls a renderer function, and POST /rendererFunctionResponse answered with the turn it continues', async () => {
    const action = JSON.stringify({
      connectionId: DOC_ID,
      action: {
        name: 'askZone',
        surfaceId: 'main',
        sourceComponentId: 'zone',
        timestamp: '2026-01-15T12:00:00.000Z',
        context: {},
      },
    });
    expect(await text(await post('/action', action, 'k-3'))).toBe(
      `200 ${block('rest-fn-action-response')}`,
    );
    expect(
      await text(
        await post('/rendererFunctionResponse', block('rest-fn-renderer-response-request'), 'k-4'),
      ),
    ).toBe(`200 ${block('rest-fn-renderer-response-response')}`);
  });

  it('a malformed call is refused with 400 naming the field', async () => {
    expect(
      await text(await post('/callAgentFunction', block('rest-fn-invalid-request'), 'k-5')),
    ).toBe(`400 ${block('rest-fn-invalid-response')}`);
  });
});
