/**
 * The spec's todo-manager (§4.7) served over HTTP: script and function handlers on one data
 * file, every call audited.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { copyTodoManager, type StartedService, startService } from '../../test/service-fixture.js';

let service: StartedService;
beforeEach(async () => {
  service = await startService(await copyTodoManager());
});
afterEach(() => service.close());

it('adds, lists, toggles and deletes todos through lavs/call', async () => {
  expect(await service.call('listTodos')).toEqual({ jsonrpc: '2.0', id: 1, result: [] });
  const added = await service.call('addTodo', { text: 'Buy milk', priority: 1 });
  expect(added.result).toMatchObject({ id: 1, text: 'Buy milk', done: false, priority: 1 });
  // The input's `default` (priority 0) reaches the script.
  expect((await service.call('addTodo', { text: 'Call mum' })).result).toMatchObject({
    id: 2,
    priority: 0,
  });
  expect((await service.call('toggleTodo', { id: 1 })).result).toMatchObject({ id: 1, done: true });
  expect((await service.call('deleteTodo', { id: 2 })).result).toEqual({ deleted: true });
  const list = (await service.call('listTodos')).result;
  expect(list).toEqual([expect.objectContaining({ id: 1, text: 'Buy milk', done: true })]);
  const onDisk = JSON.parse(await readFile(join(service.dir, 'data/todos.json'), 'utf8'));
  expect(onDisk).toEqual(list);
});

it('audits every call: endpoint, principal, duration, outcome', async () => {
  await service.call('listTodos');
  await service.call('addTodo', { text: '' });
  expect(service.audit).toEqual([
    {
      time: expect.any(String),
      method: 'lavs/call',
      endpoint: 'listTodos',
      principal: null,
      durationMs: expect.any(Number),
      outcome: 'ok',
    },
    expect.objectContaining({ endpoint: 'addTodo', outcome: 'error', code: 'INVALID_PARAMS' }),
  ]);
});

it('refuses input that breaks schema.input before the handler runs, data intact', async () => {
  await service.call('addTodo', { text: 'Keep me' });
  const before = await readFile(join(service.dir, 'data/todos.json'), 'utf8');
  const { status, body } = await service.rpc('lavs/call', {
    endpoint: 'addTodo',
    input: { text: 7 },
  });
  expect(status).toBe(200);
  expect(body).toEqual({
    jsonrpc: '2.0',
    id: 1,
    error: {
      code: -32602,
      message: 'Invalid params: /text must be string',
      data: { errors: [{ pointer: '/text', message: 'must be string' }] },
    },
  });
  const extra = await service.call('addTodo', { text: 'x', owner: 'eve' });
  expect(extra.error).toMatchObject({
    code: -32602,
    data: { errors: [{ pointer: '', message: 'must NOT have additional properties' }] },
  });
  expect(await readFile(join(service.dir, 'data/todos.json'), 'utf8')).toBe(before);
});

it('answers -32601 for an endpoint that does not exist, or a subscription called as a query', async () => {
  expect((await service.call('dropTables')).error).toEqual({
    code: -32601,
    message: 'Method not found: no query or mutation endpoint "dropTables"',
  });
  expect((await service.call('todoUpdates')).error).toMatchObject({ code: -32601 });
  expect((await service.rpc('lavs/explode', {})).body.error).toMatchObject({ code: -32601 });
  expect((await service.rpc('lavs/subscribe', { endpoint: 'todoUpdates' })).body.error).toEqual({
    code: -32601,
    message: 'Method not found: lavs/subscribe is served over the WebSocket only',
  });
});
