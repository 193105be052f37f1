/**
 * v1.0's A2A extension rule on data parts ("Data encoding": a part's `data` "MUST be an array of
 * messages"), against `@a2a-js/sdk`'s stock client: on a connection that activated the v1.0
 * extension, the server's v1.0 messages arrive as lists of one, and an action sent as a list is
 * read; v0.9 messages keep going out as the object itself.
 */
import type { StreamResponse } from '@a2a-js/sdk';
import { ClientFactory, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client';
import type { A2uiAgent, ActionEvent } from '@a2ui-ts/core';
import { BOOK_ACTION, createV10ActionSurface, V10_BASIC_CATALOG_ID } from '@a2ui-ts/core/testing';
import { afterEach, expect, it } from 'vitest';
import { dataPart, userRequest } from '../../test/agents.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { a2uiExtensionUriOf } from '../protocol/a2ui-extension.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The `data` of every data part of the status updates among `events`. */
const dataOf = (events: readonly StreamResponse[]): unknown[] =>
  events.flatMap((event) =>
    event.payload?.$case === 'statusUpdate'
      ? (event.payload.value.status?.message?.parts ?? []).flatMap((part) =>
          part.content?.$case === 'data' ? [part.content.value] : [],
        )
      : [],
  );

it('sends v1.0 messages as a list in each data part and reads an action sent as a list, on a v1.0 connection', async () => {
  const actions: ActionEvent[] = [];
  const agent: A2uiAgent = {
    onConnect(connection) {
      connection.send(createV10ActionSurface('s'));
      connection.send({
        version: 'v0.9',
        createSurface: {
          surfaceId: 'old',
          catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
        },
      });
    },
    onAction: (_connection, action) => void actions.push(action),
  };
  server = await startTestServer({ agent });
  const client = await new ClientFactory().createFromUrl(server.node.url);
  const v10 = {
    serviceParameters: ServiceParameters.create(withA2AExtensions(a2uiExtensionUriOf('v1.0'))),
  };
  const metadata = {
    a2uiRendererCapabilities: { 'v1.0': { supportedCatalogIds: [V10_BASIC_CATALOG_ID] } },
  };
  const opening = await collect(client.sendMessageStream(userRequest([], {}, metadata), v10));
  const data = dataOf(opening);
  expect(data).toEqual([
    [createV10ActionSurface('s')],
    {
      version: 'v0.9',
      createSurface: {
        surfaceId: 'old',
        catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
      },
    },
  ]);
  const task = opening[0]!.payload!.value as { id: string; contextId: string };
  const action = { version: 'v1.0', action: { ...BOOK_ACTION } };
  await collect(
    client.sendMessageStream(
      userRequest([dataPart([action])], { taskId: task.id, contextId: task.contextId }, metadata),
      v10,
    ),
  );
  expect(actions).toMatchObject([{ name: 'book', surfaceId: 's', sourceComponentId: 'root' }]);
});
