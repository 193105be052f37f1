/**
 * The shared transport conformance suite (ARCHITECTURE §3) over MCP Streamable HTTP, against a
 * real server on 127.0.0.1, port 0. Declared: resume (the SDK's resumability: a dropped stream
 * comes back with `Last-Event-ID` and is replayed from the session's log), auth (sessions bound
 * to the principal), limits, turn results (each tool call is answered with the agent's turn) and
 * server push (what the agent sends between turns, as `notifications/a2ui/messages` on the
 * session's standalone GET stream). Each client talks through its own TCP proxy (so its streams
 * can be dropped or severed) and names itself in a header, so that its `a2ui_action` /
 * `a2ui_error` calls can be refused with real HTTP 503s.
 */
import {
  CONFORMANCE_RECONNECT,
  conformanceHostOptions,
  createReturnChannelFaults,
  describeTransportConformance,
} from '@a2ui-ts/core/testing';
import { createProxiedLinks } from '@a2ui-ts/core/testing/node';
import { Hono } from 'hono';
import { listen } from '../test/listen.js';
import { connectMcp, type McpTransport } from './client/connect-mcp.js';
import { A2UI_ACTION_TOOL, A2UI_ERROR_TOOL } from './protocol/mcp-a2ui.js';
import { createMcpServer } from './server/create-mcp-server.js';

const CLIENT_HEADER = 'x-test-client';

/** Whether a request body is a `tools/call` of a client message. */
async function carriesClientMessage(request: Request): Promise<boolean> {
  if (request.method !== 'POST') return false;
  try {
    const body = (await request.clone().json()) as { method?: string; params?: { name?: string } };
    return (
      body.method === 'tools/call' &&
      (body.params?.name === A2UI_ACTION_TOOL || body.params?.name === A2UI_ERROR_TOOL)
    );
  } catch {
    return false;
  }
}

const errorCodeOf = async (response: Response): Promise<string> => {
  if (response.ok) return 'accepted';
  const body = (await response.json()) as { error?: { data?: { code?: string } } };
  return body.error?.data?.code ?? `HTTP ${response.status}`;
};

describeTransportConformance('mcp', {
  capabilities: { resume: true, auth: true, limits: true, turnResults: true, serverPush: true },
  async start(agent, options) {
    const faults = createReturnChannelFaults();
    const app = createMcpServer({ agent, ...conformanceHostOptions(options) });
    const parent = new Hono();
    parent.use('/mcp', async (c, next) => {
      if ((await carriesClientMessage(c.req.raw)) && faults.refuses(c.req.header(CLIENT_HEADER)))
        return faults.refusal();
      return next();
    });
    parent.route('/', app);
    const node = await listen(Object.assign(parent, { close: () => app.close() }));
    const url = `${node.url}/mcp`;
    const links = createProxiedLinks(node.port);
    return {
      async createTransport(create = {}) {
        const name = faults.nextName();
        const headers: Record<string, string> = { [CLIENT_HEADER]: name };
        if (create.principal) headers.authorization = create.principal;
        const transport = await links.open((proxy) =>
          connectMcp({ url: `${proxy}/mcp`, reconnect: CONFORMANCE_RECONNECT, headers }),
        );
        return faults.track(transport, name);
      },
      dropLink: links.dropLink,
      severLink: links.severLink,
      restoreLink: links.restoreLink,
      async hijack(victim, principal, message) {
        const sessionId = (victim as McpTransport).sessionId!;
        const headers = {
          authorization: principal,
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-06-18',
        };
        const resume = await fetch(url, { headers });
        const send = await fetch(url, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: A2UI_ACTION_TOOL, arguments: message.action },
          }),
        });
        return { resume: await errorCodeOf(resume), send: await errorCodeOf(send) };
      },
      failReturnChannel: faults.failReturnChannel,
      returnChannelAttempts: faults.returnChannelAttempts,
      minRetryDelayMs: CONFORMANCE_RECONNECT.initialDelayMs / 2,
      sessionCount: () => app.stats().sessions,
      close: () => links.close(() => node.close()),
    };
  },
});
