/**
 * mcp handlers against a real MCP server (`@modelcontextprotocol/sdk`'s `McpServer` over
 * Streamable HTTP on 127.0.0.1): the tool's answer as the endpoint's output, a failing tool, a
 * tool that never answers stopped at `maxExecutionTime`, and `networkAccess` refusing the server's host before any connection.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { makeService, type StartedService, startService } from '../../test/service-fixture.js';

let http: Server;
let mcpUrl: string;
const calls: unknown[] = [];
let stalls = 0;
const STALL_LIMIT_MS = 1_500;

beforeAll(async () => {
  http = createServer(async (request, response) => {
    // Stateless: a server and a transport per request, as the SDK's examples do.
    const server = new McpServer({ name: 'weather', version: '1.0.0' });
    server.registerTool(
      'forecast',
      { inputSchema: { city: z.string() }, outputSchema: { city: z.string(), tempC: z.number() } },
      async ({ city }) => {
        calls.push(city);
        const structuredContent = { city, tempC: 21 };
        return {
          content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
          structuredContent,
        };
      },
    );
    // Answers only when the caller gives up: the runtime must stop waiting at its time limit.
    server.registerTool(
      'stall',
      {},
      (extra) =>
        new Promise((resolve) => {
          stalls++;
          extra.signal.addEventListener('abort', () => resolve({ content: [] }));
          response.on('close', () => resolve({ content: [] }));
        }),
    );
    server.registerTool('broken', {}, async () => ({
      content: [{ type: 'text', text: 'the upstream is down' }],
      isError: true,
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  mcpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

async function serviceWith(
  networkAccess: boolean | string[],
  maxExecutionTime = 60_000,
): Promise<StartedService> {
  const mcp = (id: string, tool: string) => ({
    id,
    method: 'query',
    handler: { type: 'mcp', server: mcpUrl, tool },
  });
  return startService(
    await makeService({
      lavs: '1.0',
      name: 'mcp',
      version: '1.0.0',
      endpoints: [
        {
          ...mcp('forecast', 'forecast'),
          schema: {
            input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            output: { type: 'object', required: ['city', 'tempC'] },
          },
        },
        mcp('broken', 'broken'),
        mcp('stall', 'stall'),
      ],
      permissions: { networkAccess, maxExecutionTime },
    }),
  );
}

it('calls the MCP tool with the input and answers its structured content', async () => {
  const service = await serviceWith(['127.0.0.1']);
  try {
    expect(await service.call('forecast', { city: 'Lyon' })).toMatchObject({
      result: { city: 'Lyon', tempC: 21 },
    });
    expect(calls).toContain('Lyon');
    const broken = await service.call('broken');
    expect(broken.error).toMatchObject({ code: -32003 });
    expect(JSON.stringify(broken)).not.toContain('upstream is down');
    expect(service.audit.at(-1)).toMatchObject({
      endpoint: 'broken',
      detail: expect.stringContaining('upstream is down'),
    });
  } finally {
    await service.close();
  }
});

it('refuses a server whose host networkAccess does not allow, before connecting', async () => {
  const service = await serviceWith(false);
  const before = calls.length;
  try {
    expect((await service.call('forecast', { city: 'Paris' })).error).toMatchObject({
      code: -32001,
      data: { permission: 'networkAccess', host: '127.0.0.1' },
    });
    expect(calls.length).toBe(before);
  } finally {
    await service.close();
  }
});

it('stops waiting for a tool that never answers at maxExecutionTime (-32002), and serves on', async () => {
  const service = await serviceWith(['127.0.0.1'], STALL_LIMIT_MS);
  try {
    expect(await service.call('stall')).toMatchObject({
      error: {
        code: -32002,
        message: `Timeout: stall ran past ${STALL_LIMIT_MS} ms and was stopped`,
        data: { permission: 'maxExecutionTime', timeoutMs: STALL_LIMIT_MS },
      },
    });
    expect(stalls).toBe(1);
    expect(await service.call('forecast', { city: 'Nice' })).toMatchObject({
      result: { city: 'Nice', tempC: 21 },
    });
  } finally {
    await service.close();
  }
});
