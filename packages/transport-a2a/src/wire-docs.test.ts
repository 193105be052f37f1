/**
 * `docs/wire-formats.md` ("A2A") shows the JSON of every exchange; this test produces each one
 * against a real server and compares it with the blocks marked `wire-test`, where `"…"` stands for
 * a value the server makes (ids, timestamps, messages).
 */
import { BASIC_CATALOG_ID, type Connection, isRecord } from '@a2ui-ts/core';
import { readWireTestBlocks } from '@a2ui-ts/core/testing/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postRpc, readSse } from '../test/agents.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { A2UI_EXTENSION_URI } from './protocol/a2ui-extension.js';

const wire = readWireTestBlocks(new URL('../../../docs/wire-formats.md', import.meta.url), 'A2A');
const doc = (name: string): unknown => JSON.parse(wire.block(name));

/** `actual` with every value the document shows as `"…"` replaced by `"…"`. */
function masked(actual: unknown, expected: unknown): unknown {
  if (expected === '…') return '…';
  if (Array.isArray(actual) && Array.isArray(expected))
    return actual.map((item, index) => masked(item, expected[index]));
  if (isRecord(actual) && isRecord(expected))
    return Object.fromEntries(
      Object.entries(actual).map(([key, value]) => [key, masked(value, expected[key])]),
    );
  return actual;
}
const expectDoc = (actual: unknown, name: string) => {
  const expected = doc(name);
  expect(masked(actual, expected)).toEqual(expected);
};

let server: TestServer;
let connection: Connection | undefined;
const url = () => `${server.node.url}/`;

beforeAll(async () => {
  server = await startTestServer({
    publicUrl: 'https://agent.example/',
    agent: {
      onConnect(opened) {
        connection ??= opened;
        opened.send([
          { version: 'v0.9', createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID } },
          {
            version: 'v0.9',
            updateDataModel: { surfaceId: 'main', path: '/greeting', value: 'Hello' },
          },
        ]);
      },
      onAction(opened) {
        opened.send({
          version: 'v0.9',
          updateDataModel: { surfaceId: 'main', path: '/greeting', value: 'Hello again' },
        });
      },
    },
  });
});
afterAll(async () => {
  await server.close();
});

const V1 = { 'A2A-Version': '1.0', 'A2A-Extensions': A2UI_EXTENSION_URI };

it('documents the card, the opening, an action, a resume, v0.3 and the errors as they are', async () => {
  expectDoc(
    await (await fetch(`${server.node.url}/.well-known/agent-card.json`, { headers: V1 })).json(),
    'a2a-card-v1',
  );

  const open = await postRpc(url(), doc('a2a-open-request'), { ...V1, 'Last-Event-ID': '0' });
  expect(open.headers.get('a2a-extensions')).toBe(A2UI_EXTENSION_URI);
  const opened = await readSse(open);
  expectDoc(opened, 'a2a-open-events');
  const taskId = opened[0]!.result.task.id as string;

  const action = doc('a2a-action-request') as { params: { message: { taskId: string } } };
  action.params.message.taskId = taskId;
  expectDoc(await readSse(await postRpc(url(), action, V1)), 'a2a-action-events');

  const resume = doc('a2a-resume-request') as { params: { id: string } };
  resume.params.id = taskId;
  const stream = await postRpc(url(), resume, { ...V1, 'Last-Event-ID': '2' });
  const reader = stream.body!.getReader();
  let text = '';
  while (text.split('\n\n').length < 3)
    text += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  const frames = text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice('data: '.length)));
  expectDoc(frames.slice(0, 2), 'a2a-resume-events');

  const legacy = await postRpc(url(), {
    jsonrpc: '2.0',
    id: 'req-1',
    method: 'message/stream',
    params: {
      message: {
        kind: 'message',
        messageId: 'm-v03',
        contextId: 'ctx-v03',
        role: 'user',
        parts: [],
      },
    },
  });
  const legacyFrames = await readSse(legacy);
  const update = legacyFrames[1]!;
  update.result.contextId = 'ctx-1';
  update.result.status.message.contextId = 'ctx-1';
  expectDoc(update, 'a2a-v03-update');

  const badAction = {
    version: 'v0.9',
    action: { name: 5, surfaceId: 'main', sourceComponentId: 'b', timestamp: 'x', context: {} },
  };
  const v1Error = await (
    await postRpc(
      url(),
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'SendMessage',
        params: {
          message: {
            messageId: 'm-bad',
            role: 'ROLE_USER',
            parts: [{ data: badAction, mediaType: 'application/json+a2ui' }],
          },
        },
      },
      V1,
    )
  ).json();
  expectDoc(v1Error, 'a2a-error-v1');
  const v03Error = await (
    await postRpc(url(), {
      jsonrpc: '2.0',
      id: 'req-4',
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          messageId: 'm-bad-3',
          role: 'user',
          parts: [
            { kind: 'data', data: badAction, metadata: { mimeType: 'application/json+a2ui' } },
          ],
        },
      },
    })
  ).json();
  expectDoc(v03Error, 'a2a-error-v03');

  // The agent ends the session: the task completes, saying so.
  const closing = postRpc(url(), resume, { ...V1, 'Last-Event-ID': '3' });
  const closingResponse = await closing;
  connection!.close();
  const closed = (await readSse(closingResponse)).at(-1)!.result.statusUpdate;
  expectDoc(closed, 'a2a-session-closed');
});
