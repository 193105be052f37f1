/** The LAVS client against the todo-manager served on 127.0.0.1: calls, subscriptions, errors. */
import { afterEach, beforeEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { copyTodoManager, type StartedService, startService } from '../../test/service-fixture.js';
import { LavsError } from '../errors/lavs-error.js';
import { createLavsClient, type LavsClient, type WebSocketLike } from './create-lavs-client.js';

let service: StartedService;
let client: LavsClient;
beforeEach(async () => {
  service = await startService(await copyTodoManager());
  client = createLavsClient({
    url: service.url,
    openWebSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
  });
});
afterEach(async () => {
  client.close();
  await service.close();
});

it('calls endpoints and gets the manifest', async () => {
  expect(await client.call('addTodo', { text: 'Buy milk' })).toMatchObject({
    id: 1,
    text: 'Buy milk',
  });
  expect(await client.call('listTodos')).toEqual([expect.objectContaining({ id: 1 })]);
  expect((await client.getManifest()).name).toBe('todo-manager');
});

it("throws the server's error as a LavsError with its code and data", async () => {
  const error = await client.call('addTodo', { text: 1 }).catch((e: unknown) => e);
  expect(LavsError.isInstance(error)).toBe(true);
  expect(error).toMatchObject({
    code: 'INVALID_PARAMS',
    message: 'Invalid params: /text must be string',
    data: { errors: [{ pointer: '/text', message: 'must be string' }] },
  });
  await expect(client.call('nope')).rejects.toMatchObject({ code: 'METHOD_NOT_FOUND' });
});

it('subscribes over one socket: the current state, then every change, until unsubscribed', async () => {
  const first: unknown[] = [];
  const second: unknown[] = [];
  const stopFirst = client.subscribe('todoUpdates', (data) => first.push(data));
  client.subscribe('todoUpdates', (data) => second.push(data));
  await expect.poll(() => [first.length, second.length]).toEqual([1, 1]);
  await client.call('addTodo', { text: 'One' });
  await expect.poll(() => second.at(-1)).toEqual([expect.objectContaining({ text: 'One' })]);
  expect(first.at(-1)).toEqual(second.at(-1));
  stopFirst();
  await expect.poll(() => service.runtime.watcherCount).toBe(1);
  await client.call('addTodo', { text: 'Two' });
  await expect.poll(() => second.length).toBe(3);
  expect(first).toHaveLength(2);
});

it('tells onError when a subscription is refused or its socket closes', async () => {
  const errors: LavsError[] = [];
  client.subscribe('listTodos', () => {}, { onError: (error) => errors.push(error) });
  await expect.poll(() => errors.map((e) => e.code)).toEqual(['METHOD_NOT_FOUND']);
  client.subscribe('todoUpdates', () => {}, { onError: (error) => errors.push(error) });
  await expect.poll(() => service.runtime.watcherCount).toBe(1);
  await service.close();
  await expect
    .poll(() => errors.map((e) => e.code))
    .toEqual(['METHOD_NOT_FOUND', 'INTERNAL_ERROR']);
});
