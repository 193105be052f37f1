/**
 * The todo-manager as a live A2UI surface: the spec's service served for real, the view agent
 * reaching it through a LAVS client, and two A2UI clients on two transports (WebSocket and
 * SSE + JSON-RPC, each on its own server on 127.0.0.1) adding, toggling and deleting todos —
 * each change seen by the other client, and by both when a third party changes the service.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { A2uiClient } from '@a2ui-ts/core';
import { waitForClient } from '@a2ui-ts/core/testing';
import { connectSseJsonRpc, createSseJsonRpcServer } from '@a2ui-ts/transport-sse-jsonrpc';
import { serveSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc/node';
import { connectWs } from '@a2ui-ts/transport-ws';
import { createWsServer, serveWs } from '@a2ui-ts/transport-ws/server';
import { Hono } from 'hono';
import { afterEach, beforeEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { copyTodoManager, type StartedService, startService } from '../../test/service-fixture.js';
import { createLavsClient, type LavsClient } from '../client/create-lavs-client.js';
import { createLocalLavsClient } from '../runtime/create-local-lavs-client.js';
import { createLavsViewAgent } from './create-lavs-view-agent.js';
import { lavsViewSurface } from './lavs-view-surface.js';
import { planLavsView } from './plan-lavs-view.js';

const SURFACE = 'lavs-todo-manager';
type Todo = { id: number; text: string; done: boolean };

let service: StartedService;
let lavs: LavsClient;
const cleanups: Array<() => Promise<void> | void> = [];
beforeEach(async () => {
  service = await startService(await copyTodoManager());
  lavs = createLavsClient({ url: service.url, openWebSocket: (url) => new WebSocket(url) });
  cleanups.push(
    () => service.close(),
    () => lavs.close(),
  );
});
afterEach(async () => {
  errors.length = 0;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What the clients' processors refused of the agent's messages (should stay empty). */
const errors: unknown[] = [];

/** The view agent served over WebSocket and over SSE + JSON-RPC, a client connected to each. */
async function connectBoth(agent = createLavsViewAgent({ client: lavs })) {
  const ws = await serveWs(createWsServer({ agent, basePath: '/a2ui' }), { port: 0 });
  const sse = await serveSseJsonRpc(new Hono().route('/a2ui', createSseJsonRpcServer({ agent })), {
    port: 0,
  });
  cleanups.push(
    () => ws.close(),
    () => sse.close(),
  );
  const clients = [
    new A2uiClient({ transport: connectWs({ url: `${ws.url}/a2ui`, WebSocket }) }),
    new A2uiClient({ transport: connectSseJsonRpc({ url: `${sse.url}/a2ui` }) }),
  ] as const;
  for (const client of clients) {
    client.processor.onError((error) => errors.push(error));
    void client.connect();
    cleanups.push(() => client.close());
  }
  return clients;
}

const model = (client: A2uiClient) => client.processor.getSurface(SURFACE)?.dataModel;
const todos = (client: A2uiClient) => (model(client)?.get('/items') ?? []) as Todo[];
const until = (client: A2uiClient, condition: () => boolean, describe: string) =>
  waitForClient(client, condition, describe);
const shows = (client: A2uiClient, texts: string[], describe: string) =>
  until(
    client,
    () => JSON.stringify(todos(client).map((todo) => todo.text)) === JSON.stringify(texts),
    describe,
  );

it('reads the view from the manifest: a table, CheckBox toggles, row deletes, an add form', async () => {
  const manifest = await lavs.getManifest();
  const plan = planLavsView(manifest);
  expect(plan).toMatchObject({
    fallback: 'table',
    query: 'listTodos',
    subscription: 'todoUpdates',
    rowKey: 'id',
    primary: 'text',
    toggle: { endpoint: 'toggleTodo', property: 'done' },
    rowActions: [{ endpoint: 'deleteTodo', label: 'Delete' }],
    forms: [
      {
        endpoint: 'addTodo',
        label: 'Add',
        fields: [
          { key: 'text', type: 'string', label: 'Text', required: true, initial: '' },
          { key: 'priority', type: 'number', label: 'Priority', required: false, initial: 0 },
        ],
      },
    ],
    emptyText: 'No todos yet. Add one below.',
  });
  // People read labels, not property names: the schema's title, else the name in words.
  expect(plan.columns.map((column) => column.label)).toEqual([
    'ID',
    'Text',
    'Done',
    'Priority',
    'Created at',
  ]);
  const todo = manifest.types!.Todo as { properties: Record<string, unknown> };
  const titled = planLavsView({
    ...manifest,
    types: {
      ...manifest.types,
      Todo: {
        ...todo,
        properties: { ...todo.properties, done: { type: 'boolean', title: 'Finished' } },
      },
    },
  });
  expect(titled.columns.find((column) => column.key === 'done')?.label).toBe('Finished');
  expect(() => planLavsView(manifest, { query: 'dropTables' })).toThrow(
    expect.objectContaining({ code: 'METHOD_NOT_FOUND' }),
  );
});

it('lets every field of a form share its row, text the most (none squeezed at 390 px)', async () => {
  const messages = lavsViewSurface(planLavsView(await lavs.getManifest()), SURFACE);
  const components = messages.flatMap((message) =>
    'updateComponents' in message ? message.updateComponents.components : [],
  );
  const weightOf = (id: string) => components.find((component) => component.id === id)?.weight;
  expect({
    text: weightOf('form-addTodo-text'),
    priority: weightOf('form-addTodo-priority'),
  }).toEqual({ text: 3, priority: 1 });
});

it('adds, toggles and deletes todos from a WebSocket and an SSE surface, each seeing the other', async () => {
  const [overWs, overSse] = await connectBoth();
  for (const client of [overWs, overSse])
    await until(client, () => model(client)?.get('/forms/addTodo/text') === '', 'the add form');
  await until(
    overWs,
    () => model(overWs)?.get('/empty') === 'No todos yet. Add one below.',
    'the empty state, while there are no todos',
  );

  // Add from the WebSocket surface: both surfaces show it, pushed by the subscription.
  model(overWs)!.set('/forms/addTodo/text', 'Buy milk');
  expect(await overWs.dispatchAction(SURFACE, 'form-addTodo-submit')).toBe(true);
  await shows(overSse, ['Buy milk'], 'the SSE surface shows the todo added over WebSocket');
  await shows(overWs, ['Buy milk'], 'the WebSocket surface too');
  expect(model(overWs)!.get('/forms/addTodo/text')).toBe('');
  expect(model(overWs)!.get('/empty')).toBe('');

  // "Save changes" is disabled while the list is empty (its check reads `/hasItems`).
  await until(overSse, () => model(overSse)?.get('/hasItems') === true, 'Save changes enabled');

  // Tick the CheckBox on the SSE surface and save: the service toggles, the other surface follows.
  model(overSse)!.set('/items/0/done', true);
  expect(await overSse.dispatchAction(SURFACE, 'apply')).toBe(true);
  await until(
    overWs,
    () => todos(overWs)[0]?.done === true,
    'the toggle reaches the WebSocket surface',
  );
  expect(JSON.parse(await readFile(join(service.dir, 'data/todos.json'), 'utf8'))).toEqual([
    expect.objectContaining({ id: 1, text: 'Buy milk', done: true }),
  ]);

  // Another client of the service (an agent's tool, curl) adds one: both surfaces show it.
  await lavs.call('addTodo', { text: 'Call mum' });
  await shows(overWs, ['Buy milk', 'Call mum'], 'a third party reaches the WebSocket surface');
  await shows(overSse, ['Buy milk', 'Call mum'], 'and the SSE surface');

  // Delete the first row from the WebSocket surface (the button in the row's template scope).
  expect(await overWs.dispatchAction(SURFACE, 'row-deleteTodo', { scope: '/items/0' })).toBe(true);
  await shows(overSse, ['Call mum'], 'the delete reaches the SSE surface');
  expect(errors).toEqual([]);
});

it('shows a refused mutation on the surface and keeps the todos', async () => {
  const [overWs] = await connectBoth();
  await until(overWs, () => model(overWs)?.get('/forms/addTodo/text') === '', 'the add form');
  await lavs.call('addTodo', { text: 'Buy milk' });
  await shows(overWs, ['Buy milk'], 'the first todo');
  expect(await overWs.dispatchAction(SURFACE, 'form-addTodo-submit')).toBe(true); // empty text
  await until(
    overWs,
    () => String(model(overWs)?.get('/status')).includes('must NOT have fewer than 1 characters'),
    'the refusal',
  );
  expect(todos(overWs).map((todo) => todo.text)).toEqual(['Buy milk']);
  expect(await lavs.call('listTodos')).toEqual([expect.objectContaining({ text: 'Buy milk' })]);
});

it('renders the json fallback as the output JSON text, kept live', async () => {
  const [overWs] = await connectBoth(createLavsViewAgent({ client: lavs, fallback: 'json' }));
  await until(overWs, () => model(overWs)?.get('/json') === '[]', 'the empty list as JSON');
  await lavs.call('addTodo', { text: 'Buy milk' });
  await until(
    overWs,
    () => String(model(overWs)?.get('/json')).includes('"text": "Buy milk"'),
    'the pushed list as JSON',
  );
});

it('shows a runtime in this process the same way, through createLocalLavsClient', async () => {
  const local = createLocalLavsClient(service.runtime);
  cleanups.push(() => local.close());
  const [overWs, overSse] = await connectBoth(createLavsViewAgent({ client: local }));
  await until(overSse, () => model(overSse)?.get('/forms/addTodo/text') === '', 'the add form');
  model(overSse)!.set('/forms/addTodo/text', 'Buy milk');
  expect(await overSse.dispatchAction(SURFACE, 'form-addTodo-submit')).toBe(true);
  await shows(overWs, ['Buy milk'], 'the todo added over SSE, on the WebSocket surface');
  await service.runtime.call('deleteTodo', { id: 1 });
  await shows(overSse, [], 'the delete made in this process, on the SSE surface');
});
