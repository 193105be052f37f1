/**
 * mcp handlers over stdio against a real MCP server process (`@modelcontextprotocol/sdk`'s
 * `McpServer` on `StdioServerTransport`): one process reused by every call, a call past its time
 * answered -32002 with the process stopped and the next call served by a fresh one, a server that
 * cannot start reported, and every process gone once the service closes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeService, type StartedService, startService } from '../../test/service-fixture.js';

const STALL_LIMIT_MS = 1_500;
const require = createRequire(import.meta.url);
const sdk = (path: string) =>
  pathToFileURL(require.resolve(`@modelcontextprotocol/sdk/${path}`)).href;

/** Whether `pid` still runs (a zombie left for a container's PID 1 counts as gone). */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const SERVER = `
import { McpServer } from '${sdk('server/mcp.js')}';
import { StdioServerTransport } from '${sdk('server/stdio.js')}';
const server = new McpServer({ name: 'counter', version: '1.0.0' });
let calls = 0;
server.registerTool('whoami', {}, async () => {
  calls++;
  const structuredContent = { pid: process.pid, calls };
  return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
});
server.registerTool('stall', {}, () => new Promise(() => {}));
await server.connect(new StdioServerTransport());
console.error('counter server ready');
`;

let service: StartedService;
const stdio = (id: string, tool: string, extra: Record<string, unknown> = {}) => ({
  id,
  method: 'query',
  handler: { type: 'mcp', server: { command: process.execPath, args: ['server.mjs'] }, tool },
  ...extra,
});

beforeAll(async () => {
  const dir = await makeService(
    {
      lavs: '1.0',
      name: 'mcp-stdio',
      version: '1.0.0',
      endpoints: [
        stdio('whoami', 'whoami'),
        stdio('stall', 'stall', { permissions: { maxExecutionTime: STALL_LIMIT_MS } }),
        {
          id: 'missing',
          method: 'query',
          handler: { type: 'mcp', server: { command: 'no-such-command-lavs' }, tool: 'x' },
        },
      ],
      permissions: { maxExecutionTime: 60_000 },
    },
    { 'server.mjs': SERVER },
  );
  service = await startService(dir, { killGraceMs: 200 });
});
afterAll(() => service.close());

it('starts the server once and reuses it for every call', async () => {
  const first = (await service.call('whoami')).result;
  const second = (await service.call('whoami')).result;
  expect(second).toEqual({ pid: first.pid, calls: first.calls + 1 });
  expect(isRunning(first.pid)).toBe(true);
});

it('answers -32002 past maxExecutionTime, stops the server, and starts a fresh one for the next call', async () => {
  const before = (await service.call('whoami')).result.pid as number;
  expect(await service.call('stall')).toEqual({
    jsonrpc: '2.0',
    id: 1,
    error: {
      code: -32002,
      message: `Timeout: stall ran past ${STALL_LIMIT_MS} ms and was stopped`,
      data: { permission: 'maxExecutionTime', timeoutMs: STALL_LIMIT_MS },
    },
  });
  const after = (await service.call('whoami')).result;
  expect(after.pid).not.toBe(before);
  expect(after.calls).toBe(1);
  expect(isRunning(before)).toBe(false);
});

it('reports a server that cannot start as -32003 and keeps serving', async () => {
  expect((await service.call('missing')).error).toEqual({
    code: -32003,
    message: 'Handler error: the mcp server could not be started',
  });
  expect((await service.call('whoami')).result).toMatchObject({ calls: expect.any(Number) });
});

it('stops its servers when the service closes', async () => {
  const dir = service.dir;
  const other = await startService(dir);
  const { pid } = (await other.call('whoami')).result as { pid: number };
  expect(isRunning(pid)).toBe(true);
  await other.close();
  expect(isRunning(pid)).toBe(false);
});
