/**
 * Every HTTP binding refuses a JSON request it cannot read the same way (core's
 * `JSON_REQUEST_FAILURES`, `docs/session-host.md` "Reading a JSON request"): the same status, the
 * same code and message in the binding's own error shape — a JSON-RPC error object from SSE's
 * `POST /rpc` and A2A's endpoint, `{"error": {code, message}}` from REST and AG-UI — and never a
 * parser's or runtime's own text. Each case goes to every binding, each served on 127.0.0.1
 * port 0.
 */
import { connect } from 'node:net';
import { createAgUiServer } from '@a2ui-ts/agui-adapter';
import type { A2uiAgent } from '@a2ui-ts/core';
import {
  type FetchApp,
  type HttpListener,
  JSON_REQUEST_FAILURES,
  type JsonRequestFailure,
} from '@a2ui-ts/core/host';
import { createA2aServer } from '@a2ui-ts/transport-a2a';
import { serveA2a } from '@a2ui-ts/transport-a2a/node';
import { createRestServer, REST_PATHS } from '@a2ui-ts/transport-rest';
import { createSseJsonRpcServer } from '@a2ui-ts/transport-sse-jsonrpc';
import { serveSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const agent: A2uiAgent = { onConnect() {} };
const limits = { maxRequestBytes: 1_000, bodyTimeoutMs: 300 };

interface Binding {
  readonly name: string;
  readonly app: FetchApp;
  /** The path of its JSON POST. */
  readonly path: string;
  readonly shape: 'json-rpc' | 'error-object';
  /** Serves it on 127.0.0.1 port 0 (its package's Node entry, or one that serves any app). */
  readonly serve: (app: FetchApp) => Promise<HttpListener<unknown>>;
}

const bindings: Binding[] = [
  {
    name: 'SSE + JSON-RPC',
    app: createSseJsonRpcServer({ agent, ...limits }),
    path: '/rpc',
    shape: 'json-rpc',
    serve: serveSseJsonRpc,
  },
  {
    name: 'A2A',
    app: createA2aServer({ agent, card: { name: 'Refusals', description: 'x' }, ...limits }),
    path: '/',
    shape: 'json-rpc',
    serve: serveA2a,
  },
  // REST and AG-UI have no Node entry yet; any binding's serves a fetch app.
  {
    name: 'REST',
    app: createRestServer({ agent, ...limits }),
    path: REST_PATHS.connect,
    shape: 'error-object',
    serve: serveSseJsonRpc,
  },
  {
    name: 'AG-UI',
    app: createAgUiServer({ agent, ...limits }),
    path: '/',
    shape: 'error-object',
    serve: serveSseJsonRpc,
  },
];

const listeners = new Map<string, HttpListener<unknown>>();
beforeAll(async () => {
  for (const binding of bindings) listeners.set(binding.name, await binding.serve(binding.app));
});
afterAll(async () => {
  for (const listener of listeners.values()) await listener.close();
});

const JSON_TYPE = { 'content-type': 'application/json' };
const cases: Array<{ name: string; failure: JsonRequestFailure; init: RequestInit }> = [
  {
    name: 'no Content-Type',
    failure: 'unsupported-media-type',
    init: { body: new Blob(['{}']) },
  },
  {
    name: 'a form',
    failure: 'unsupported-media-type',
    init: { body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  },
  {
    name: 'a body too large',
    failure: 'too-large',
    init: { body: JSON.stringify({ text: 'x'.repeat(2_000) }), headers: JSON_TYPE },
  },
  {
    name: 'invalid UTF-8',
    failure: 'invalid-utf8',
    init: { body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), headers: JSON_TYPE },
  },
  { name: 'an empty body', failure: 'empty-body', init: { body: '', headers: JSON_TYPE } },
  {
    name: 'invalid JSON',
    failure: 'invalid-json',
    init: { body: '{"jsonrpc": "2.0", "method"', headers: JSON_TYPE },
  },
];

/** Text no answer may carry: a parser's message, a stack, a runtime's error. */
const INTERNAL_TEXT = /Unexpected|SyntaxError|position \d|JSON input|\n\s+at |hang up|TypeError/;

/** Checks `text` is the binding's error shape carrying the row of `failure`. */
function expectRefusal(binding: Binding, failure: JsonRequestFailure, text: string) {
  const row = JSON_REQUEST_FAILURES[failure];
  const message = row.message({
    maxBytes: limits.maxRequestBytes,
    timeoutMs: limits.bodyTimeoutMs,
  });
  expect(text).not.toMatch(INTERNAL_TEXT);
  const body = JSON.parse(text);
  if (binding.shape === 'json-rpc') {
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null });
    expect(Number.isInteger(body.error.code)).toBe(true);
    // SSE puts its row's name first (`Parse error: …`); the table's message is the detail.
    expect(body.error.message).toContain(message);
    expect(body).not.toHaveProperty('result');
  } else {
    expect(body.error).toMatchObject({ code: row.code, message });
  }
}

describe.each(bindings)('$name refuses a JSON request it cannot read', (binding) => {
  const url = () => `${listeners.get(binding.name)!.url}${binding.path}`;

  it.each(cases)('$name', async ({ failure, init }) => {
    const response = await fetch(url(), { method: 'POST', ...init });
    expect(response.status).toBe(JSON_REQUEST_FAILURES[failure].status);
    expectRefusal(binding, failure, await response.text());
  });

  it('a body that does not arrive within bodyTimeoutMs', async () => {
    const { hostname, port } = new URL(url());
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
    });
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(
      `POST ${binding.path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 100\r\nConnection: close\r\n\r\n{"a":',
    );
    await closed;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expectRefusal(binding, 'timeout', text.slice(text.indexOf('\r\n\r\n') + 4));
  });

  it('a body its client stops sending midway (the answer nobody reads, seen by the app)', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
        controller.error(new Error('socket hang up'));
      },
    });
    const request = new Request(`http://127.0.0.1${binding.path}`, {
      method: 'POST',
      headers: JSON_TYPE,
      body,
      duplex: 'half',
    } as RequestInit);
    const response = await binding.app.fetch(request);
    expect(response.status).toBe(JSON_REQUEST_FAILURES.aborted.status);
    expectRefusal(binding, 'aborted', await response.text());
  });
});
