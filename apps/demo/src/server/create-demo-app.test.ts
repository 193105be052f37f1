import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientFactory } from '@a2a-js/sdk/client';
import { type A2uiAgent, A2uiClient } from '@a2ui-ts/core';
import { HTTP_TIMEOUT_DEFAULTS } from '@a2ui-ts/core/host';
import { waitForClient } from '@a2ui-ts/core/testing';
import { runSlowHeaderTrial } from '@a2ui-ts/core/testing/node';
import { connectSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoAgents, describeUnavailableAgents } from '../agents/create-demo-agents.js';
import { createRestaurantAgent } from '../agents/restaurant-agent.js';
import { createManualScheduler } from '../agents/scheduler.js';
import { createDemoApp } from './create-demo-app.js';
import { createJsonLogger } from './json-logger.js';
import {
  type DemoServer,
  type StartDemoServerOptions,
  startDemoServer,
} from './start-demo-server.js';
import { SERVER_TRANSPORTS } from './transports.js';

describe('demo agents', () => {
  it('offer the LLM agent only when it is configured', () => {
    expect(createDemoAgents({ env: {} }).map((agent) => agent.id)).toEqual([
      'restaurant',
      'gallery',
      'time-zone',
      'city-finder',
      'todos',
      'mcp-app',
    ]);
    const agents = createDemoAgents({
      env: { A2UI_LLM_BASE_URL: 'http://localhost:11434/v1', A2UI_LLM_MODEL: 'qwen2.5' },
    });
    expect(agents.map((agent) => agent.id)).toEqual([
      'restaurant',
      'gallery',
      'time-zone',
      'city-finder',
      'todos',
      'mcp-app',
      'llm',
    ]);
    expect(agents[6]!.label).toBe('LLM (qwen2.5)');
  });
});

/** A built client of one HTML shell, `<title>demo</title>`. */
function shellDir(): string {
  const clientDir = mkdtempSync(join(tmpdir(), 'demo-client-'));
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>demo</title>');
  return clientDir;
}

/** The restaurant agent, its clock never advanced. */
function restaurantAgent() {
  return {
    id: 'restaurant',
    label: 'Restaurant',
    description: 'Books tables.',
    agent: createRestaurantAgent({ scheduler: createManualScheduler() }),
  };
}

/** A quiet demo server with the restaurant agent and a built shell; `options` override. */
function startRestaurantDemo(options: StartDemoServerOptions = {}): Promise<DemoServer> {
  return startDemoServer({
    agents: [restaurantAgent()],
    clientDir: shellDir(),
    logger: () => {},
    ...options,
  });
}

describe('createDemoApp', () => {
  it('describes its agents and transports for the pickers', async () => {
    const { app, close } = createDemoApp({ agents: createDemoAgents({ env: {} }) });
    const response = await app.request('/api/config');
    expect(await response.json()).toEqual({
      basePath: '/a2ui',
      agents: [
        { id: 'restaurant', label: 'Restaurant booking', description: expect.any(String) },
        { id: 'gallery', label: 'Example gallery', description: expect.any(String) },
        { id: 'time-zone', label: 'Time zone (frontend tool)', description: expect.any(String) },
        {
          id: 'city-finder',
          label: 'City finder (A2UI v1.0 functions)',
          description: expect.any(String),
        },
        { id: 'todos', label: 'Todos (LAVS service)', description: expect.any(String) },
        { id: 'mcp-app', label: 'MCP App in A2UI', description: expect.any(String) },
      ],
      unavailableAgents: [],
      transports: SERVER_TRANSPORTS.map(({ id, label }) => ({ id, label })),
    });
    expect(SERVER_TRANSPORTS.map(({ id }) => id)).toEqual(
      expect.arrayContaining(['sse-jsonrpc', 'rest']),
    );
    expect(SERVER_TRANSPORTS[0]).toMatchObject({ id: 'sse-jsonrpc', label: 'SSE + JSON-RPC' });
    await close();
  });

  it('lists the LLM agent as unavailable, with why, until it is configured', () => {
    expect(describeUnavailableAgents({})).toEqual([
      {
        id: 'llm',
        label: 'LLM (not configured)',
        description: expect.stringContaining('A2UI_LLM_BASE_URL'),
      },
    ]);
    expect(
      describeUnavailableAgents({
        A2UI_LLM_BASE_URL: 'http://127.0.0.1:1/v1',
        A2UI_LLM_MODEL: 'm',
      }),
    ).toEqual([]);
  });

  it('serves the built client, with the app shell for client-side routes', async () => {
    const clientDir = shellDir();
    writeFileSync(join(clientDir, 'app.js'), 'console.log(1)');
    const { app, close } = createDemoApp({ agents: [], clientDir });
    expect(await (await app.request('/')).text()).toContain('<title>demo</title>');
    expect(await (await app.request('/app.js')).text()).toBe('console.log(1)');
    expect(await (await app.request('/some/page')).text()).toContain('<title>demo</title>');
    await close();
  });

  it('answers a JSON 404, not the app shell, for unknown agent, transport, API and asset paths', async () => {
    const { app, close } = createDemoApp({ agents: [restaurantAgent()], clientDir: shellDir() });
    // A mistyped agent or transport in a client's URL, an API path that does not exist, and a
    // hashed asset of an older build (a tab open across a deploy) are errors, not pages.
    for (const path of [
      '/a2ui/nope/sse-jsonrpc/sse',
      '/a2ui/restaurant/nope',
      '/a2ui',
      '/api/nope',
      '/assets/index-0ld0ld.js',
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({
        error: { code: 'NOT_FOUND', message: `Nothing is served at ${path}.` },
      });
    }
    // The transports and the shell still answer.
    expect((await app.request('/api/config')).status).toBe(200);
    expect(await (await app.request('/')).text()).toContain('<title>demo</title>');
    const rest = await app.request('/a2ui/restaurant/rest/connect', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(rest.status).toBe(200);
    await close();
  });

  it('serves an A2A agent card at the origin root for stock clients, and 404s (JSON) other well-known paths', async () => {
    const demo = await startRestaurantDemo();
    try {
      // The stock client reads the card at the origin's well-known path, then talks to its URL.
      const client = await new ClientFactory().createFromUrl(demo.url);
      const card = await client.getAgentCard();
      expect(card.name).toContain('restaurant');
      const endpoint = card.supportedInterfaces[0]!.url;
      expect(endpoint).toBe(`${demo.url}/a2ui/restaurant/a2a`);
      // …and the endpoint it names answers A2A.
      const listed = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
      });
      expect(await listed.json()).toMatchObject({ result: { tasks: [] } });
      const legacy = await fetch(`${demo.url}/.well-known/agent.json`);
      expect(legacy.headers.get('content-type')).toMatch(/^application\/json/);
      for (const path of ['/.well-known/nope.json', '/.well-known/security.txt']) {
        const missing = await fetch(`${demo.url}${path}`);
        expect(missing.status).toBe(404);
        expect(await missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
      }
    } finally {
      await demo.close();
    }
  });

  it('writes structured log lines', () => {
    const lines: string[] = [];
    const logger = createJsonLogger((line) => lines.push(line));
    logger('action', { name: 'search' });
    logger('agent.error', { message: 'boom' });
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { time: expect.any(String), level: 'info', event: 'action', name: 'search' },
      { time: expect.any(String), level: 'error', event: 'agent.error', message: 'boom' },
    ]);
  });
});

describe('demo server over SSE + JSON-RPC', () => {
  let server: DemoServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('streams an agent to a Node client and logs connection, action and disconnect', async () => {
    const logs: Array<{ event: string; [key: string]: unknown }> = [];
    server = await startDemoServer({
      agents: [
        {
          id: 'restaurant',
          label: 'R',
          description: 'R',
          agent: createRestaurantAgent({ scheduler: createManualScheduler() }),
        },
      ],
      logger: (event, fields) => logs.push({ event, ...fields }),
    });
    const client = new A2uiClient({
      transport: connectSseJsonRpc({ url: `${server.url}/a2ui/restaurant/sse-jsonrpc` }),
    });
    void client.connect().catch(() => {});
    await waitForClient(
      client,
      () => client.processor.getSurface('booking-search')?.dataModel.get('/search') !== undefined,
      'the search form',
    );
    const surface = client.processor.getSurface('booking-search')!;
    surface.dataModel.set('/search/query', 'Paris');
    // The agent refuses dates in the past.
    const inTwoWeeks = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    surface.dataModel.set('/search/date', inTwoWeeks);
    await client.dispatchAction('booking-search', 'search-button');
    await waitForClient(
      client,
      () =>
        Array.isArray(
          client.processor.getSurface('booking-results')?.dataModel.get('/restaurants'),
        ),
      'the results',
    );
    await client.close();
    await expect
      .poll(() => logs.map((record) => record.event))
      .toEqual(['connection.open', 'action', 'connection.close']);
    expect(logs[1]).toMatchObject({
      agent: 'restaurant',
      transport: 'sse-jsonrpc',
      name: 'search',
      context: { query: 'Paris', partySize: 2 },
    });
  });

  it('rejects an agent message that breaks the catalog before it reaches any client', async () => {
    const errors: unknown[] = [];
    const agent: A2uiAgent = {
      onConnect(connection) {
        try {
          connection.send([
            {
              version: 'v0.9',
              createSurface: {
                surfaceId: 's',
                catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
              },
            },
            {
              version: 'v0.9',
              updateComponents: { surfaceId: 's', components: [{ id: 'root', component: 'Text' }] },
            },
          ]);
        } catch (error) {
          errors.push(error);
        }
      },
    };
    const { app, close } = createDemoApp({
      agents: [{ id: 'bad', label: 'Bad', description: 'Bad', agent }],
    });
    const response = await app.request('/a2ui/bad/sse-jsonrpc/sse');
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('event: connected'))
      text += new TextDecoder().decode((await reader.read()).value);
    await expect.poll(() => errors.length).toBe(1);
    expect(String(errors[0])).toContain('text');
    await reader.cancel();
    await close();
  });
});

describe('demo server request timeouts', () => {
  it('has the documented defaults, and cuts clients that trickle their headers while the app is served', async () => {
    const defaults = await startRestaurantDemo();
    try {
      expect(defaults.server.headersTimeout).toBe(HTTP_TIMEOUT_DEFAULTS.headersTimeoutMs);
      expect(defaults.server.requestTimeout).toBe(HTTP_TIMEOUT_DEFAULTS.requestTimeoutMs);
    } finally {
      await defaults.close();
    }
    const demo = await startRestaurantDemo({
      headersTimeoutMs: 300,
      requestTimeoutMs: 1_000,
      timeoutCheckIntervalMs: 50,
    });
    try {
      const trial = await runSlowHeaderTrial(
        demo.port,
        async () => (await fetch(`${demo.url}/api/config`)).status,
        { byteIntervalMs: 20 },
      );
      expect(trial.served).toBe(200);
      expect(trial.answers).toEqual(Array(3).fill(expect.stringMatching(/^HTTP\/1\.1 408 /)));
    } finally {
      await demo.close();
    }
  });
});
