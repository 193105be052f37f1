/**
 * The options, defaults and shape of the AG-UI server (`createAgUiServer`): what an app passes
 * and what it gets back.
 */
import {
  type BindingSessionHostOptions,
  DEFAULT_BODY_TIMEOUT_MS,
  SESSION_HOST_DEFAULTS,
  type SessionHost,
  type SessionHostStats,
} from '@a2ui-ts/core/host';
import type { Hono } from 'hono';
import type { cors } from 'hono/cors';
import type { AgUiOutputMode } from './surface-emitter.js';

/** CORS settings: the options of Hono's `cors()` middleware. */
export type AgUiCorsOptions = NonNullable<Parameters<typeof cors>[0]>;

/**
 * Options of `createAgUiServer`: the session host's (agent, `authenticate`, caps, grace,
 * bounds — see `SessionHostOptions` in `@a2ui-ts/core`) and the binding's own. Durations in
 * milliseconds, sizes in bytes.
 */
export interface AgUiServerOptions extends BindingSessionHostOptions {
  /**
   * How surfaces travel: `activity` (what CopilotKit and `@ag-ui/a2ui-middleware` render),
   * `state` (`state.surfaces`, for custom frontends and `connectAgUi`), or `tool-result` (a tool
   * result per surface, for hosts that run the A2UI middleware, kept in the history).
   * @default 'activity'
   */
  mode?: AgUiOutputMode;
  /**
   * Path of the endpoint when the app is served on its own. To mount under a path of another app,
   * leave it empty and use `parent.route('/agent', app)`.
   * @default ''
   */
  basePath?: string;
  /**
   * How long a thread lives without a run before its agent's `onDisconnect('grace-expired')`; a
   * later run on it starts a new thread. (The session host's `reconnectGraceMs`.)
   * @default 1800000 (30 minutes)
   */
  reconnectGraceMs?: number;
  /**
   * `activity` mode: how many bytes of appended messages a surface's activity message takes before
   * it is replaced by a compact snapshot of the surface (so a client never re-reads an ever
   * growing list). `Infinity` keeps every message as sent.
   * @default the larger of the surface's last snapshot and 16 KiB (the list stays within twice
   *   the surface, plus 16 KiB)
   */
  compactActivityAfterBytes?: number;
  /**
   * How the spec's v0.9 catalogs are named in what the client receives. `'copilotkit'` names them
   * as `@copilotkit/a2ui-renderer` (1.74) registers them (`…/v0_9/basic_catalog.json`,
   * `…/catalogs/minimal/minimal_catalog.json`; core's `COPILOTKIT_CATALOG_IDS`), without which
   * stock CopilotKit draws nothing; `'spec'` keeps the spec's ids. Other catalogs are unchanged.
   * Capabilities naming either spelling are understood whatever this says.
   * @default 'spec'
   */
  catalogIds?: 'spec' | 'copilotkit';
  /** Interval of the `: keepalive` comment on a silent run. @default 15000 */
  keepAliveIntervalMs?: number;
  /**
   * Longest a waiting run (`forwardedProps.a2uiWait`: a long poll, what `connectAgUi`'s
   * `longPoll` sends) stays open after its turns, streaming what the agent sends meanwhile; the
   * thread's next request ends it sooner. Keep it below the idle timeout of proxies on the way.
   * 0 answers waiting runs like any other.
   * @default 25000
   */
  maxRunWaitMs?: number;
  /** Largest request body (it echoes the client's state). Larger ones get HTTP 413. @default 8388608 */
  maxRequestBytes?: number;
  /** Deadline for reading one request body; a slower one gets HTTP 408. @default 10000 */
  bodyTimeoutMs?: number;
  /** Bytes a run's client has not read yet; above it the run is dropped. @default 16777216 */
  maxBufferedBytes?: number;
  /** Cross-origin access. Without it no CORS headers are sent. @default undefined */
  cors?: AgUiCorsOptions;
}

/** Defaults of {@link AgUiServerOptions}, in one place. */
export const AGUI_SERVER_DEFAULTS = {
  ...SESSION_HOST_DEFAULTS,
  mode: 'activity',
  catalogIds: 'spec',
  basePath: '',
  reconnectGraceMs: 1_800_000,
  keepAliveIntervalMs: 15_000,
  maxRunWaitMs: 25_000,
  maxRequestBytes: 8_388_608,
  bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
  maxBufferedBytes: 16_777_216,
} as const;

/** Counters for monitoring and leak tests: the session host's, and the runs'. */
export interface AgUiServerStats extends SessionHostStats {
  /** Runs streaming now. */
  runs: number;
  /** Threads whose state this node keeps. */
  threads: number;
  /** Whether the shared keep-alive timer runs (only while runs stream). */
  keepAliveTimer: boolean;
}

/** The Hono app returned by `createAgUiServer`, with its host and lifecycle. */
export type AgUiServer = Hono & {
  /** The session host behind the endpoint. */
  readonly host: SessionHost;
  readonly mode: AgUiOutputMode;
  stats(): AgUiServerStats;
  /** Ends every thread (agents see `server-closed`) and every run; later runs get 503. */
  close(): Promise<void>;
};
