/**
 * Bad input against the v1.0 action/error path of SSE + JSON-RPC (`params.version`): a wrong
 * type, an unknown version, a huge `userMessage`, `metadata` nested 10,000 levels, v1.0 on a v0.9
 * connection. Each is refused in JSON-RPC's own error shape, with no internal exception text, the
 * agent never sees it, and the connection still serves a normal action afterwards. Real server on
 * 127.0.0.1 port 0.
 */
import {
  BOOK_ACTION,
  createV10ActionAgent,
  INTERNAL_ERROR_TEXT,
  postRawJson,
} from '@a2ui-ts/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream } from '../test/event-stream-reader.js';
import { serveSseJsonRpc } from './node.js';
import { createSseJsonRpcServer } from './server/create-sse-json-rpc-server.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const action = BOOK_ACTION;

async function start(versions: string) {
  const { agent, actions } = createV10ActionAgent();
  const errors: unknown[] = [];
  const app = createSseJsonRpcServer({
    agent,
    keepAliveIntervalMs: 60_000,
    onAgentError: (error: unknown) => {
      errors.push(error);
    },
  });
  const node = await serveSseJsonRpc(app);
  closers.push(
    () => node.close(),
    () => app.close(),
  );
  const stream = await openEventStream(`${node.url}/sse`, {
    headers: { Accept: 'text/event-stream', 'A2UI-Versions': versions },
  });
  closers.push(async () => stream.close());
  const { connectionId } = JSON.parse(
    (await stream.next((event) => event.event === 'connected')).data,
  );
  const postText = async (text: string) => {
    const answer = await postRawJson(`${node.url}/rpc`, text);
    expect(answer.text).not.toMatch(INTERNAL_ERROR_TEXT);
    return answer;
  };
  const post = (params: Record<string, unknown>, method = 'a2ui.action') =>
    postText(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { connectionId, ...params } }),
    );
  return { actions, errors, post, postText, connectionId: connectionId as string };
}

const refusals: Array<[string, Record<string, unknown>]> = [
  ['a number', { version: 1 }],
  ['an object', { version: { v: '1.0' } }],
  ['null', { version: null }],
  ['an array', { version: ['v1.0'] }],
  ['an unknown version', { version: 'v2.0' }],
  ['an empty string', { version: '' }],
  ['a prototype key', { version: '__proto__' }],
];

describe('SSE + JSON-RPC: bad v1.0 actions are refused in JSON-RPC shape', () => {
  for (const [label, extra] of refusals) {
    it(`params.version as ${label}: -32602, nothing delivered, the connection still serves`, async () => {
      const { actions, errors, post } = await start('v1.0');
      const refused = await post({ ...extra, action: { ...action, userMessage: 'hi' } });
      expect(refused.body.error.code).toBe(-32602);
      expect(refused.body.id).toBe(1);
      expect(actions).toEqual([]);
      const accepted = await post({ version: 'v1.0', action: { ...action, userMessage: 'ok' } });
      expect(accepted.body.result).toMatchObject({ accepted: true });
      expect(actions).toEqual([expect.objectContaining({ userMessage: 'ok' })]);
      expect(errors).toEqual([]);
    });
  }

  it('a userMessage of the wrong type is refused with its path', async () => {
    const { actions, post } = await start('v1.0');
    for (const userMessage of [42, { text: 'x' }, ['x'], null]) {
      const refused = await post({ version: 'v1.0', action: { ...action, userMessage } });
      expect(refused.body.error.code).toBe(-32602);
    }
    expect(actions).toEqual([]);
  });

  it('a huge userMessage (8 MB) is refused as too large and the server keeps serving', async () => {
    const { actions, post } = await start('v1.0');
    const refused = await post({
      version: 'v1.0',
      action: { ...action, userMessage: 'x'.repeat(8 * 1024 * 1024) },
    });
    expect(refused.status === 413 || refused.body?.error?.code !== undefined).toBe(true);
    if (refused.body) expect(refused.body.error.message).not.toMatch(INTERNAL_ERROR_TEXT);
    expect(actions).toEqual([]);
    const accepted = await post({ version: 'v1.0', action });
    expect(accepted.body.result).toMatchObject({ accepted: true });
  });

  it('metadata nested 10,000 levels deep is refused, not a stack overflow', async () => {
    const { actions, errors, postText, post, connectionId } = await start('v1.0');
    // Built as text: JSON.stringify of such a value would itself overflow the test's stack.
    const depth = 10_000;
    const metadata = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const refused = await postText(
      `{"jsonrpc":"2.0","id":7,"method":"a2ui.action","params":{"connectionId":${JSON.stringify(connectionId)},"version":"v1.0","action":{"name":"book","surfaceId":"s","sourceComponentId":"root","timestamp":"2026-01-15T12:00:00.000Z","context":{},"metadata":${metadata}}}}`,
    );
    expect(refused.body.id).toBe(7);
    expect([-32600, -32602]).toContain(refused.body.error.code);
    expect(actions).toEqual([]);
    expect(errors).toEqual([]);
    const accepted = await post({ version: 'v1.0', action });
    expect(accepted.body.result).toMatchObject({ accepted: true });
  });
  it('a v1.0 error on a v0.9 connection is refused at /params/version', async () => {
    const { actions, post } = await start('v0.9');
    const refused = await post(
      {
        version: 'v1.0',
        error: { code: 'VALIDATION_FAILED', surfaceId: 's', path: '/x', message: 'bad' },
      },
      'a2ui.error',
    );
    expect(refused.body.error).toMatchObject({ code: -32602, data: { path: '/params/version' } });
    expect(actions).toEqual([]);
    const accepted = await post({ action });
    expect(accepted.body.result).toMatchObject({ accepted: true });
  });
});
