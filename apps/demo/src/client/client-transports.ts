/**
 * The client half of every transport the demo server mounts (see `../server/transports.ts`).
 * Adding a transport is one entry here. Each is imported when first chosen, so the page downloads
 * only the transport it uses (the A2A and AG-UI SDKs are larger than the rest of the page).
 */
import type { AgUiFrontendTool } from '@a2ui-ts/agui-adapter';
import type { ClientTransport } from '@a2ui-ts/core';
import { createWebStorageResumeStore, type ResumeStore } from '@a2ui-ts/core/link';
import { MCP_CLIENT_TRANSPORT } from './mcp-client-transport.js';

/** What the page asks of a connection. */
export interface ConnectOptions {
  /** The A2UI versions to offer (see `version-choice.ts`). @default the transport's: every one */
  readonly offeredVersions?: readonly string[];
}

/** Connects to an agent served at `url` over one transport. */
export interface ClientTransportFactory {
  /** Same id as the server transport. */
  readonly id: string;
  /**
   * Loads the transport's code (once) and creates its client transport for `url`, offering
   * `offeredVersions` (the version switch; AG-UI carries v0.9 only and offers nothing).
   * @default every version the transport reads
   */
  connect(url: string, options?: ConnectOptions): Promise<ClientTransport>;
  /**
   * What the inspector says about this transport's traffic in the browser's network panel, when
   * something there looks wrong but is not. @default nothing
   */
  readonly networkNote?: string;
}

/**
 * Where the page keeps the resume token of a transport (SSE, WebSocket, REST), so that a reload
 * resumes its session — the same surfaces, the agent not starting over (docs/session-host.md
 * "Reload keeps the screen"). `sessionStorage`: each tab its own session, gone with the tab. One
 * key per transport, agent URL and version offer: a reload that asks for another version starts
 * a session in it. Closing the client (another agent, transport or version chosen) clears it.
 */
export function pageResumeStore(
  transportId: string,
  url: string,
  offeredVersions?: readonly string[],
): ResumeStore | false {
  let storage: Storage;
  try {
    storage = window.sessionStorage;
  } catch {
    // Storage blocked (an opaque origin, a privacy setting): a reload starts a new session.
    return false;
  }
  const offer = offeredVersions?.join(',') ?? 'any';
  return createWebStorageResumeStore({
    storage,
    key: `a2ui-demo:resume:${transportId}:${offer}:${new URL(url, location.href).href}`,
  });
}

/** Client transports by id. */
export const CLIENT_TRANSPORTS: readonly ClientTransportFactory[] = [
  {
    id: 'sse-jsonrpc',
    connect: async (url, options = {}) =>
      (await import('@a2ui-ts/transport-sse-jsonrpc')).connectSseJsonRpc({
        url,
        heartbeatTimeoutMs: 45_000,
        offeredVersions: options.offeredVersions,
        resume: pageResumeStore('sse-jsonrpc', url, options.offeredVersions),
      }),
  },
  {
    id: 'ws',
    // The page's own origin, as ws: or wss:; the browser's WebSocket.
    connect: async (url, options = {}) =>
      (await import('@a2ui-ts/transport-ws')).connectWs({
        url: new URL(url, location.href).href.replace(/^http/, 'ws'),
        offeredVersions: options.offeredVersions,
        resume: pageResumeStore('ws', url, options.offeredVersions),
      }),
  },
  {
    id: 'rest',
    connect: async (url, options = {}) =>
      (await import('@a2ui-ts/transport-rest')).connectRest({
        url,
        offeredVersions: options.offeredVersions,
        resume: pageResumeStore('rest', url, options.offeredVersions),
      }),
  },
  {
    id: 'a2a',
    networkNote:
      'A2A ends a streamed call it no longer needs (a finished turn, a stream replaced on reconnect) by aborting its request: the browser’s network panel shows those POSTs as canceled, in red. They are deliberate; a real failure shows here, as the link status.',
    connect: async (url, options = {}) =>
      (await import('@a2ui-ts/transport-a2a')).connectA2a({
        url,
        offeredVersions: options.offeredVersions,
      }),
  },
  { id: 'agui-state', connect: (url) => connectAgUiDemo(url) },
  { id: 'agui-activity', connect: (url) => connectAgUiDemo(url) },
  MCP_CLIENT_TRANSPORT,
];

/**
 * Frontend tools the page offers AG-UI agents: the agent calls one, the run ends, the page runs it
 * and the next run carries the result (the time-zone agent uses it).
 */
export const DEMO_FRONTEND_TOOLS: readonly AgUiFrontendTool[] = [
  {
    name: 'getTimeZone',
    description: 'The IANA time zone of the user’s browser, e.g. "Europe/Paris".',
    parameters: { type: 'object', properties: {} },
    handler: () => Intl.DateTimeFormat().resolvedOptions().timeZone,
  },
];

/**
 * AG-UI has no server push, so the page long-polls: whenever it runs nothing else, one waiting
 * run is open, and what the agent sends between runs (the gallery's streamed messages, the
 * restaurant's live "tables left" updates) streams in as it is sent, as over SSE.
 */
async function connectAgUiDemo(url: string): Promise<ClientTransport> {
  const { connectAgUi } = await import('@a2ui-ts/agui-adapter');
  return connectAgUi({ url, tools: DEMO_FRONTEND_TOOLS, longPoll: true, pollIntervalMs: 2_000 });
}
