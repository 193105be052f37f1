/** Bad requests over HTTP: each refused in JSON-RPC's own shape, the service still serving. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { copyTodoManager, type StartedService, startService } from '../../test/service-fixture.js';

let service: StartedService;
beforeAll(async () => {
  service = await startService(await copyTodoManager(), { maxRequestBytes: 4_096 });
});
afterAll(() => service.close());

const post = async (body: string, contentType = 'application/json') => {
  const response = await fetch(`${service.url}/`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  return {
    status: response.status,
    body: response.status === 204 ? undefined : await response.json(),
  };
};

it('answers -32700 with HTTP 400 for a body that is not JSON', async () => {
  expect(await post('{"jsonrpc": "2.0", ')).toEqual({
    status: 400,
    body: {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: The body is not valid JSON.' },
    },
  });
});

it('refuses an oversized request with HTTP 413, and still serves', async () => {
  const text = 'x'.repeat(5_000);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'lavs/call',
    params: { endpoint: 'addTodo', input: { text } },
  });
  expect(await post(body)).toEqual({
    status: 413,
    body: {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'Invalid request: The body is larger than 4096 bytes.',
        data: { maxRequestBytes: 4_096 },
      },
    },
  });
  expect((await service.call('listTodos')).result).toEqual([]);
});

it('answers -32600 for what is not a JSON-RPC 2.0 request', async () => {
  for (const request of [
    { id: 1, method: 'lavs/call' },
    { jsonrpc: '2.0', id: 1, method: 7 },
    { jsonrpc: '2.0', id: 1, method: 'lavs/call', params: 'listTodos' },
    { jsonrpc: '2.0', id: { no: 1 }, method: 'lavs/call' },
    42,
  ]) {
    const { status, body } = await post(JSON.stringify(request));
    expect(status).toBe(200);
    expect(body.error).toMatchObject({ code: -32600 });
  }
  expect((await post('[]')).body.error).toMatchObject({
    code: -32600,
    message: 'Invalid request: the batch is empty',
  });
});

it('answers -32602 when params.endpoint is missing', async () => {
  expect((await service.rpc('lavs/call', { input: {} })).body.error).toEqual({
    code: -32602,
    message: 'Invalid params: params.endpoint must be a string',
  });
});

it('refuses a body that is not declared as JSON (415)', async () => {
  const { status, body } = await post('{}', 'text/plain');
  expect(status).toBe(415);
  expect(body.error).toMatchObject({ code: -32600 });
});

it('serves a batch, answering requests and not notifications', async () => {
  const batch = [
    { jsonrpc: '2.0', id: 'a', method: 'lavs/call', params: { endpoint: 'listTodos' } },
    { jsonrpc: '2.0', method: 'lavs/call', params: { endpoint: 'listTodos' } },
    { jsonrpc: '2.0', id: 'b', method: 'lavs/nope' },
  ];
  const { status, body } = await post(JSON.stringify(batch));
  expect(status).toBe(200);
  expect(body).toEqual([
    { jsonrpc: '2.0', id: 'a', result: [] },
    {
      jsonrpc: '2.0',
      id: 'b',
      error: { code: -32601, message: 'Method not found: no method "lavs/nope"' },
    },
  ]);
  expect((await post(JSON.stringify(batch[1]))).status).toBe(204);
});

it('serves the manifest', async () => {
  const response = await fetch(`${service.url}/manifest`);
  expect(await response.json()).toMatchObject({ name: 'todo-manager', lavs: '1.0' });
});

it('audits the principal authenticate returns, and refuses an unauthenticated caller', async () => {
  const guarded = await startService(await copyTodoManager(), {
    authenticate: (request) =>
      request.headers.get('authorization')?.replace('Bearer ', '') || undefined,
  });
  try {
    const call = (headers: Record<string, string>) =>
      fetch(`${guarded.url}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'lavs/call',
          params: { endpoint: 'listTodos' },
        }),
      });
    const refused = await call({});
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: -32001 } });
    expect((await call({ authorization: 'Bearer ada' })).status).toBe(200);
    expect(guarded.audit).toEqual([
      expect.objectContaining({ endpoint: 'listTodos', principal: 'ada', outcome: 'ok' }),
    ]);
  } finally {
    await guarded.close();
  }
});
