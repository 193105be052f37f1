/**
 * Bad input against the v1.0 action/error path of REST (body `version`): a wrong type, an unknown
 * version, a huge `userMessage`, `metadata` nested 10,000 levels, v1.0 on a v0.9 connection. Each
 * is refused with a 4xx in REST's own error shape (`{ error: { code, message } }`), no internal
 * exception text, the agent never sees it, and the connection still serves a normal action
 * afterwards. Real server on 127.0.0.1 port 0.
 */
import {
  BOOK_ACTION,
  createV10ActionAgent,
  INTERNAL_ERROR_TEXT,
  postRawJson,
} from '@a2ui-ts/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

const action = BOOK_ACTION;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(versions: string) {
  const { agent, actions } = createV10ActionAgent();
  const errors: unknown[] = [];
  server = await startTestServer({
    agent,
    onAgentError: (error: unknown) => {
      errors.push(error);
    },
  });
  const opened = await server.post('/connect', {}, { 'A2UI-Versions': versions });
  const { connectionId } = opened.body;
  const postText = async (text: string) => {
    const answer = await postRawJson(`${server!.url}/action`, text);
    expect(answer.text).not.toMatch(INTERNAL_ERROR_TEXT);
    return answer;
  };
  const post = (body: Record<string, unknown>) =>
    postText(JSON.stringify({ connectionId, ...body }));
  const expectStillServes = async () => {
    const accepted = await post({ version: 'v1.0', action: { ...action, userMessage: 'ok' } });
    expect(accepted.status).toBe(200);
    expect(actions).toEqual([expect.objectContaining({ userMessage: 'ok' })]);
  };
  return {
    actions,
    errors,
    post,
    postText,
    connectionId: connectionId as string,
    expectStillServes,
  };
}

const refusals: Array<[string, unknown]> = [
  ['a number', 1],
  ['an object', { v: '1.0' }],
  ['null', null],
  ['an array', ['v1.0']],
  ['an unknown version', 'v2.0'],
  ['an empty string', ''],
  ['a prototype key', '__proto__'],
];

describe('REST: bad v1.0 actions are refused in REST shape', () => {
  for (const [label, version] of refusals) {
    it(`body version as ${label}: 400 with an error code, nothing delivered, the connection still serves`, async () => {
      const { actions, errors, post, expectStillServes } = await start('v1.0');
      const refused = await post({ version, action: { ...action, userMessage: 'hi' } });
      expect(refused.status).toBe(400);
      expect(typeof refused.body.error.code).toBe('string');
      expect(typeof refused.body.error.message).toBe('string');
      expect(actions).toEqual([]);
      await expectStillServes();
      expect(errors).toEqual([]);
    });
  }

  it('a userMessage of the wrong type is refused', async () => {
    const { actions, post, expectStillServes } = await start('v1.0');
    for (const userMessage of [42, { text: 'x' }, ['x'], null]) {
      const refused = await post({ version: 'v1.0', action: { ...action, userMessage } });
      expect(refused.status).toBe(400);
      expect(typeof refused.body.error.code).toBe('string');
    }
    expect(actions).toEqual([]);
    await expectStillServes();
  });

  it('a huge userMessage (8 MB) is refused as too large and the server keeps serving', async () => {
    const { actions, post, expectStillServes } = await start('v1.0');
    const refused = await post({
      version: 'v1.0',
      action: { ...action, userMessage: 'x'.repeat(8 * 1024 * 1024) },
    });
    expect(refused.status).toBe(413);
    expect(actions).toEqual([]);
    await expectStillServes();
  });

  it('metadata nested 10,000 levels deep is refused, not a stack overflow', async () => {
    const { actions, errors, postText, connectionId, expectStillServes } = await start('v1.0');
    // Built as text: JSON.stringify of such a value would itself overflow the test's stack.
    const depth = 10_000;
    const metadata = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const refused = await postText(
      `{"connectionId":${JSON.stringify(connectionId)},"version":"v1.0","action":{"name":"book","surfaceId":"s","sourceComponentId":"root","timestamp":"2026-01-15T12:00:00.000Z","context":{},"metadata":${metadata}}}`,
    );
    expect(refused.status).toBe(400);
    expect(typeof refused.body.error.code).toBe('string');
    expect(actions).toEqual([]);
    expect(errors).toEqual([]);
    await expectStillServes();
  });

  it('a v1.0 error on a v0.9 connection is refused (400 NOT_SUPPORTED), and v0.9 still reads', async () => {
    const { actions, postText, connectionId } = await start('v0.9');
    const response = await fetch(`${server!.url}/error`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        connectionId,
        version: 'v1.0',
        error: { code: 'VALIDATION_FAILED', surfaceId: 's', path: '/x', message: 'bad' },
      }),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('NOT_SUPPORTED');
    const accepted = await postText(JSON.stringify({ connectionId, action }));
    expect(accepted.status).toBe(200);
    expect(actions).toHaveLength(1);
  });
});
