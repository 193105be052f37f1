/**
 * HTTP handlers against a real upstream on 127.0.0.1: only hosts networkAccess allows are
 * contacted (redirects checked too), answers bounded in time and size.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type HttpListener, listenHttpServer } from '@a2ui-ts/core/host';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeService, type StartedService, startService } from '../../test/service-fixture.js';

let upstream: HttpListener<Server>;
const hits: string[] = [];
let service: StartedService;

function respond(request: IncomingMessage, response: ServerResponse) {
  hits.push(`${request.method} ${request.url}`);
  const chunks: Buffer[] = [];
  request.on('data', (c: Buffer) => chunks.push(c));
  request.on('end', () => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/echo') {
      response.setHeader('content-type', 'application/json');
      return response.end(
        JSON.stringify({
          method: request.method,
          query: url.search,
          body: Buffer.concat(chunks).toString(),
          auth: request.headers['x-api-key'] ?? null,
        }),
      );
    }
    if (url.pathname === '/away') {
      response.writeHead(302, { location: 'http://localhost:1/elsewhere' });
      return response.end();
    }
    if (url.pathname === '/fail') {
      response.writeHead(500);
      return response.end('{"stack":"at Database.connect (/srv/db.js:1)"}');
    }
    if (url.pathname === '/big') return response.end(JSON.stringify('x'.repeat(100_000)));
    // /slow: never answers.
  });
}

beforeAll(async () => {
  upstream = await listenHttpServer(createServer(respond));
  const http = (
    id: string,
    path: string,
    method: string,
    permissions: Record<string, unknown> = {},
  ) => ({
    id,
    method: 'query',
    handler: { type: 'http', url: `${upstream.url}${path}`, method, headers: { 'x-api-key': 'k' } },
    permissions: { networkAccess: ['127.0.0.1'], ...permissions },
  });
  const dir = await makeService({
    lavs: '1.0',
    name: 'http',
    version: '1.0.0',
    endpoints: [
      http('post', '/echo', 'POST'),
      http('get', '/echo', 'GET'),
      http('offline', '/echo', 'GET', { networkAccess: false }),
      http('otherHost', '/echo', 'GET', { networkAccess: ['api.example.com'] }),
      http('redirect', '/away', 'GET'),
      http('slow', '/slow', 'GET', { maxExecutionTime: 300 }),
      http('fail', '/fail', 'GET'),
      http('big', '/big', 'GET'),
      { ...http('undeclared', '/echo', 'GET'), permissions: undefined },
    ],
  });
  service = await startService(dir, { maxOutputBytes: 10_000 });
});
afterAll(async () => {
  await service.close();
  await upstream.close();
});

it('sends the input as JSON (query string for GET) with the manifest headers', async () => {
  expect((await service.call('post', { text: 'hi' })).result).toEqual({
    method: 'POST',
    query: '',
    body: '{"text":"hi"}',
    auth: 'k',
  });
  expect((await service.call('get', { q: 'milk', n: 2 })).result).toEqual({
    method: 'GET',
    query: '?q=milk&n=2',
    body: '',
    auth: 'k',
  });
});

it('refuses hosts networkAccess does not allow, without contacting them', async () => {
  hits.length = 0;
  for (const endpoint of ['offline', 'otherHost', 'undeclared']) {
    expect((await service.call(endpoint)).error).toEqual({
      code: -32001,
      message: 'Permission denied: networkAccess does not allow host 127.0.0.1',
      data: { permission: 'networkAccess', host: '127.0.0.1' },
    });
  }
  expect(hits).toEqual([]);
});

it('refuses a redirect to a host networkAccess does not allow', async () => {
  expect((await service.call('redirect')).error).toEqual({
    code: -32001,
    message: 'Permission denied: networkAccess does not allow host localhost',
    data: { permission: 'networkAccess', host: 'localhost' },
  });
});

it('gives up on an upstream past maxExecutionTime with -32002', async () => {
  expect((await service.call('slow')).error).toEqual({
    code: -32002,
    message: 'Timeout: slow got no answer within 300 ms',
    data: { permission: 'maxExecutionTime', timeoutMs: 300 },
  });
});

it('answers -32003 for an upstream error without its body, and for an oversized answer', async () => {
  expect((await service.call('fail')).error).toEqual({
    code: -32003,
    message: 'Handler error: the HTTP endpoint answered 500',
    data: { status: 500 },
  });
  expect((await service.call('big')).error).toEqual({
    code: -32003,
    message: 'Handler error: the response is larger than 10000 bytes',
  });
});
