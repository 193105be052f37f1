/**
 * The client half of the demo's MCP transport (`../server/mcp-transport.ts`): `connectMcp` on the
 * MCP SDK's client, loaded when first chosen.
 */
import type { ClientTransportFactory } from './client-transports.js';

/** MCP over Streamable HTTP: actions as tool calls, live updates on the session's GET stream. */
export const MCP_CLIENT_TRANSPORT: ClientTransportFactory = {
  id: 'mcp',
  networkNote:
    'MCP sends each action as a POST whose answer is a short event stream, and keeps one GET stream open for live updates; the DELETE on leaving ends the session.',
  connect: async (url, options = {}) =>
    (await import('@a2ui-ts/transport-mcp')).connectMcp({
      // The SDK wants an absolute URL.
      url: new URL(url, location.href).href,
      offeredVersions: options.offeredVersions,
    }),
};
