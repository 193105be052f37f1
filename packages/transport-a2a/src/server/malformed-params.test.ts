/**
 * Every A2A method, v1.0 and v0.3, with malformed params against a real server: each is refused
 * with −32602 naming what is wrong, a body that is JSON but not a request with −32600, and no
 * answer ever carries the text of a JavaScript exception.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formAgent, type JsonFrame, postRpc } from '../../test/agents.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { INTERNAL_ERROR_MESSAGE } from './json-rpc-route.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ agent: formAgent().agent });
});
afterAll(() => server.close());

/** Words of JavaScript's own exception messages: none may reach a client. */
const INTERNAL_TEXT =
  /Cannot read properties|is not a function|Unexpected token|is not valid JSON|undefined|TypeError/;

async function call(body: unknown, legacy: boolean): Promise<JsonFrame> {
  const response = await postRpc(
    `${server.node.url}/`,
    body,
    legacy ? {} : { 'A2A-Version': '1.0' },
  );
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as JsonFrame;
}

/** `[method, params, the field the message must name]`; v0.3 methods contain a slash. */
const MALFORMED: readonly (readonly [string, unknown, string])[] = [
  ['SendMessage', { message: 5 }, 'message'],
  ['SendMessage', { message: { messageId: 7, role: 'ROLE_USER', parts: [] } }, 'messageId'],
  ['SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: 5 } }, 'parts'],
  ['SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [5] } }, 'parts/0'],
  [
    'SendMessage',
    { message: { messageId: 'm', role: 'ROLE_USER', parts: [], contextId: 1 } },
    'contextId',
  ],
  [
    'SendStreamingMessage',
    { message: { messageId: 'm', role: 'ROLE_USER', parts: [], taskId: {} } },
    'taskId',
  ],
  ['SendStreamingMessage', [], 'params'],
  ...(
    [
      [{ text: 5 }, 'parts/0.text must be a string'],
      [{ raw: 5 }, 'parts/0.raw must be a string'],
      [{ url: {} }, 'parts/0.url must be a string'],
      [{ data: { version: 'v0.9' }, metadata: 5 }, 'parts/0.metadata must be an object'],
      [{ data: {}, mediaType: 5 }, 'parts/0.mediaType must be a string'],
      [{ text: 'x', filename: 7 }, 'parts/0.filename must be a string'],
      [{}, 'parts/0 must have exactly one of text, raw, url or data (got none)'],
      [{ text: 'a', data: {} }, 'parts/0 must have exactly one of text, raw, url or data'],
    ] as const
  ).map(
    ([part, field]) =>
      [
        'SendMessage',
        { message: { messageId: 'm', role: 'ROLE_USER', parts: [part] } },
        field,
      ] as const,
  ),
  ...(
    [
      [{ kind: 'text', text: 5 }, 'parts/0.text must be a string'],
      [{ kind: 'text' }, 'parts/0.text must be a string'],
      [{ kind: 'data', data: 'x' }, 'parts/0.data must be an object'],
      [{ kind: 'data', data: [1] }, 'parts/0.data must be an object'],
      [{ kind: 'data' }, 'parts/0.data must be an object'],
      [{ kind: 'file', file: 5 }, 'parts/0.file must be an object'],
      [{ kind: 'file', file: { uri: 5 } }, 'parts/0.file.uri must be a string'],
      [{ kind: 'file', file: {} }, 'parts/0.file must have one of bytes or uri'],
      [{ kind: 'text', text: 'x', metadata: 'm' }, 'parts/0.metadata must be an object'],
      [{ kind: 5 }, 'parts/0.kind must be'],
    ] as const
  ).map(
    ([part, field]) =>
      [
        'message/send',
        { message: { kind: 'message', messageId: 'm', role: 'user', parts: [part] } },
        field,
      ] as const,
  ),
  ['GetTask', { id: 5 }, 'id'],
  ['GetTask', { id: 'x', historyLength: 'all' }, 'historyLength'],
  ['CancelTask', { id: ['x'] }, 'id'],
  ['SubscribeToTask', { id: null }, 'id'],
  ['ListTasks', { pageSize: 'big' }, 'pageSize'],
  ['ListTasks', { contextId: 5 }, 'contextId'],
  ['ListTasks', 'x', 'params'],
  ['CreateTaskPushNotificationConfig', {}, 'taskId'],
  ['GetTaskPushNotificationConfig', { taskId: 't', id: 5 }, 'id'],
  ['ListTaskPushNotificationConfigs', { taskId: 5 }, 'taskId'],
  ['DeleteTaskPushNotificationConfig', { id: 'c' }, 'taskId'],
  ['GetExtendedAgentCard', 5, 'params'],
  [
    'message/send',
    { message: { kind: 'message', messageId: 'm', role: 'user', parts: {} } },
    'parts',
  ],
  ['message/stream', { message: null }, 'message'],
  ['tasks/get', { id: 5 }, 'id'],
  ['tasks/cancel', { id: 5, taskId: 5 }, 'id'],
  ['tasks/resubscribe', { id: { x: 1 } }, 'id'],
  ['tasks/pushNotificationConfig/set', {}, 'taskId'],
  [
    'tasks/pushNotificationConfig/set',
    { taskId: 't', pushNotificationConfig: 5 },
    'pushNotificationConfig',
  ],
  ['tasks/pushNotificationConfig/get', { id: 5 }, 'id'],
  ['tasks/pushNotificationConfig/list', { id: 5 }, 'id'],
  ['tasks/pushNotificationConfig/delete', { id: 't' }, 'pushNotificationConfigId'],
];

describe('malformed params', () => {
  it.each(MALFORMED)('%s %j is −32602 naming %s', async (method, params, field) => {
    const legacy = method.includes('/');
    const answer = await call({ jsonrpc: '2.0', id: 9, method, params }, legacy);
    expect(answer.id).toBe(9);
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toContain(field);
    expect(answer.error.message).not.toMatch(INTERNAL_TEXT);
  });

  it('leaves the server serving well-formed requests', async () => {
    const answer = await call({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }, false);
    expect(answer.result).toMatchObject({ tasks: [] });
  });
});

describe('bodies that are JSON but not a request', () => {
  it.each([
    ['"x"'],
    ['5'],
    ['null'],
    ['[]'],
    ['{}'],
    ['{"jsonrpc":"1.0","id":1,"method":"GetTask","params":{"id":"x"}}'],
    ['{"jsonrpc":"2.0","id":{},"method":"GetTask","params":{"id":"x"}}'],
    ['{"jsonrpc":"2.0","id":1,"method":5}'],
  ])('%s is −32600 Invalid Request', async (body) => {
    for (const legacy of [false, true]) {
      const answer = await call(body, legacy);
      expect(answer.error.code).toBe(-32600);
      expect(answer.error.message).toMatch(/^Invalid Request: /);
      expect(answer.error.message).not.toMatch(INTERNAL_TEXT);
    }
  });
});

describe('an over-long request id', () => {
  it('is −32600 Invalid Request with id null: a 300 KB id is never sent back', async () => {
    for (const legacy of [false, true]) {
      const method = legacy ? 'tasks/get' : 'GetTask';
      const body = `{"jsonrpc":"2.0","id":"${'i'.repeat(300_000)}","method":"${method}","params":{"id":"x"}}`;
      const answer = await call(body, legacy);
      expect(answer).toMatchObject({ id: null, error: { code: -32600 } });
      expect(JSON.stringify(answer).length).toBeLessThan(500);
    }
  });
});

describe('an unexpected failure', () => {
  it('reaches the client as a generic −32603, never with the exception text', async () => {
    const failing = await startTestServer({
      agent: formAgent().agent,
      taskStore: {
        load: () =>
          Promise.reject(new TypeError("Cannot read properties of undefined (reading 'secret')")),
        save: () => Promise.resolve(),
        list: () => Promise.reject(new Error('db password wrong')),
      },
      onAgentError: () => {},
    });
    try {
      for (const [method, params, legacy] of [
        ['GetTask', { id: 't' }, false],
        ['ListTasks', {}, false],
        ['tasks/get', { id: 't' }, true],
      ] as const) {
        const response = await postRpc(
          `${failing.node.url}/`,
          { jsonrpc: '2.0', id: 3, method, params },
          legacy ? {} : { 'A2A-Version': '1.0' },
        );
        const answer = (await response.json()) as JsonFrame;
        expect(answer.error.code).toBe(-32603);
        expect(answer.error.message).toBe(INTERNAL_ERROR_MESSAGE);
      }
    } finally {
      await failing.close();
    }
  });
});
