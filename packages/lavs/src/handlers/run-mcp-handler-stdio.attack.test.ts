/**
 * Bad stdio MCP servers against the runtime (`handler.server: { command, args, env, cwd }`): a
 * command or cwd that climbs out of the service, a server that floods stdout without a line
 * break, one that never answers `initialize`, one that exits at once, one that prints garbage
 * lines. Each call is answered in LAVS's JSON-RPC error shape with no internal exception text,
 * and the service keeps serving (a normal tool call after). Real processes, real HTTP server on
 * 127.0.0.1 port 0.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeService, type StartedService, startService } from '../../test/service-fixture.js';
import { safeParseManifest } from '../manifest/parse-manifest.js';

const LIMIT_MS = 3_000;
const INTERNAL_TEXT =
  /Cannot read propert|is not a function|is not iterable|\n\s+at |TypeError|RangeError|ReadBuffer|ZodError/;
const require = createRequire(import.meta.url);
const sdk = (path: string) =>
  pathToFileURL(require.resolve(`@modelcontextprotocol/sdk/${path}`)).href;

const GOOD = `
import { McpServer } from '${sdk('server/mcp.js')}';
import { StdioServerTransport } from '${sdk('server/stdio.js')}';
const server = new McpServer({ name: 'good', version: '1.0.0' });
server.registerTool('ping', {}, async () => ({ content: [{ type: 'text', text: '{"pong":true}' }] }));
await server.connect(new StdioServerTransport());
`;

const endpoint = (id: string, args: string[]) => ({
  id,
  method: 'query',
  handler: { type: 'mcp', server: { command: process.execPath, args }, tool: 'ping' },
});

let service: StartedService;
beforeAll(async () => {
  const dir = await makeService(
    {
      lavs: '1.0',
      name: 'mcp-stdio-attack',
      version: '1.0.0',
      endpoints: [
        endpoint('good', ['good.mjs']),
        // 64 MB without a newline, then silence: the reader must not hold it all.
        endpoint('flood', [
          '-e',
          "const c = Buffer.alloc(1 << 20, 120); let n = 0; const go = () => { while (n < 64 && process.stdout.write(c)) n++; if (n < 64) process.stdout.once('drain', () => { n++; go(); }); }; go(); setInterval(() => {}, 1000);",
        ]),
        // Garbage lines, then silence.
        endpoint('garbage', [
          '-e',
          "for (let i = 0; i < 1000; i++) process.stdout.write('{not json}\\n[1,2]\\nnull\\n'); setInterval(() => {}, 1000);",
        ]),
        endpoint('mute', ['-e', 'process.stdin.resume(); setInterval(() => {}, 1000);']),
        endpoint('exits', ['-e', 'process.exit(0)']),
        endpoint('crashes', [
          '-e',
          'console.error("secret stack"); throw new TypeError("x is not a function")',
        ]),
      ],
      permissions: { maxExecutionTime: LIMIT_MS },
    },
    { 'good.mjs': GOOD },
  );
  service = await startService(dir, { killGraceMs: 200 });
});
afterAll(() => service.close());

async function expectRefused(id: string) {
  const body = await service.call(id);
  expect(body.result).toBeUndefined();
  expect([-32002, -32003]).toContain(body.error.code);
  expect(JSON.stringify(body)).not.toMatch(INTERNAL_TEXT);
  expect((await service.call('good')).result).toEqual({ pong: true });
  return body.error;
}

describe('mcp stdio servers that misbehave', () => {
  it('serves a good server', async () => {
    expect((await service.call('good')).result).toEqual({ pong: true });
  });

  it('a server that floods stdout without a newline is answered with an error and bounded memory', async () => {
    const before = process.memoryUsage().rss;
    await expectRefused('flood');
    // The SDK's read buffer is capped; 64 MB of flood must not stay resident.
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
  });

  it('a server that prints garbage lines is answered with an error', async () => {
    await expectRefused('garbage');
  });

  it('a server that never answers initialize is stopped at maxExecutionTime (-32002)', async () => {
    const error = await expectRefused('mute');
    expect(error).toMatchObject({ code: -32002, data: { permission: 'maxExecutionTime' } });
  });

  it('a server that exits at once is answered -32003', async () => {
    expect(await expectRefused('exits')).toMatchObject({ code: -32003 });
  });

  it('a server that crashes keeps its stderr and exception out of the answer', async () => {
    const error = await expectRefused('crashes');
    expect(JSON.stringify(error)).not.toContain('secret stack');
  });

  it('two calls racing a server that never answers are both answered', async () => {
    const [first, second] = await Promise.all([service.call('mute'), service.call('mute')]);
    // One of them times out and stops the shared server; the other may see it stopped (-32003).
    for (const body of [first, second]) {
      expect([-32002, -32003]).toContain(body.error.code);
      expect(JSON.stringify(body)).not.toMatch(INTERNAL_TEXT);
    }
    expect((await service.call('good')).result).toEqual({ pong: true });
  });
});

describe('mcp stdio paths that climb out of the service are refused at load', () => {
  const manifest = (server: Record<string, unknown>) => ({
    lavs: '1.0',
    name: 'x',
    version: '1.0.0',
    endpoints: [{ id: 'm', method: 'query', handler: { type: 'mcp', server, tool: 't' } }],
  });
  for (const server of [
    { command: 'bin/../../evil' },
    { command: './a/b/../../../evil' },
    { command: 'node', cwd: 'sub/../../..' },
    { command: 'node', cwd: '/etc' },
    { command: 'node', cwd: 'ok\0/../..' },
    { command: 'bin\0/x' },
  ]) {
    it(JSON.stringify(server), () => {
      const parsed = safeParseManifest(manifest(server), { baseDir: '/srv/service' });
      expect(parsed.success).toBe(false);
    });
  }
});
