/**
 * `McpStdioClients` against a real stdio MCP server process: a call that fails late stops only
 * the server it used, never the fresh one another call has started since.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { McpStdioClients } from './mcp-stdio-clients.js';

const require = createRequire(import.meta.url);
const sdk = (path: string) =>
  pathToFileURL(require.resolve(`@modelcontextprotocol/sdk/${path}`)).href;

const SERVER = `
import { McpServer } from '${sdk('server/mcp.js')}';
import { StdioServerTransport } from '${sdk('server/stdio.js')}';
const server = new McpServer({ name: 'pid', version: '1.0.0' });
server.registerTool('pid', {}, async () => ({ content: [{ type: 'text', text: String(process.pid) }] }));
await server.connect(new StdioServerTransport());
`;

/** Whether `pid` still runs (a zombie counts as gone). */
async function isRunning(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && !/^\d+ \(.*\) Z/.test(stat);
}

let dir: string;
let clients: McpStdioClients;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lavs-mcp-stdio-'));
  await writeFile(join(dir, 'server.mjs'), SERVER);
  clients = new McpStdioClients({ baseDir: dir, killGraceMs: 2_000 });
});
afterEach(async () => {
  await clients.close();
  await rm(dir, { recursive: true, force: true });
});

const server = { command: process.execPath, args: ['server.mjs'] };
const pidOf = async (signal = new AbortController().signal) => {
  const client = await clients.client(server, signal, () => {});
  const result = await client.callTool({ name: 'pid', arguments: {} });
  return { client, pid: Number((result.content as [{ text: string }])[0].text) };
};

it.skipIf(process.platform !== 'linux')(
  'a late stop for a server already replaced leaves the fresh one running',
  async () => {
    const first = await pidOf();
    clients.stop(server, first.client);
    await expect.poll(() => isRunning(first.pid)).toBe(false);
    const second = await pidOf();
    expect(second.pid).not.toBe(first.pid);
    // The call that used the first server fails late and stops "its" server again.
    clients.stop(server, first.client);
    const third = await pidOf();
    expect(third.pid).toBe(second.pid);
    expect(await isRunning(second.pid)).toBe(true);
  },
);
