/**
 * The LAVS runtime (spec §3.3): runs endpoints of a loaded manifest — input checked against
 * `schema.input` before the handler runs, output against `schema.output` after (spec §6.3),
 * permissions enforced, every call audited — and feeds subscriptions. Transport-free: the HTTP
 * and WebSocket servers call it.
 */
import { LavsError } from '../errors/lavs-error.js';
import { McpStdioClients } from '../handlers/mcp-stdio-clients.js';
import type { LavsManifest } from '../manifest/manifest-types.js';
import type { LoadedEndpoint, LoadedManifest } from '../manifest/parse-manifest.js';
import { describeIssues } from '../manifest/schema-issues.js';
import {
  type LavsAuditEntry,
  type LavsAuditLogger,
  stderrAuditLogger,
  toAuditEntry,
} from './audit-entry.js';
import { runEndpoint } from './run-endpoint.js';
import { SubscriptionFeeds } from './subscription-feeds.js';

/** Options of {@link createLavsRuntime}. */
export interface LavsRuntimeOptions {
  /** Receives one entry per call. @default one JSON line per call on stderr */
  logger?: LavsAuditLogger;
  /** Execution time of a handler whose manifest sets none, in milliseconds. @default 30000 */
  defaultTimeoutMs?: number;
  /** Most bytes read from a handler's output (stdout, a response body). @default 1048576 */
  maxOutputBytes?: number;
  /** Time between SIGTERM and SIGKILL for a script past its time, in milliseconds. @default 2000 */
  killGraceMs?: number;
}

/** Defaults of {@link LavsRuntimeOptions}, in one place. */
export const LAVS_RUNTIME_DEFAULTS = {
  defaultTimeoutMs: 30_000,
  maxOutputBytes: 1_048_576,
  killGraceMs: 2_000,
} as const;

/** Options of one {@link LavsRuntime.call}. */
export interface CallOptions {
  /** Who calls, for the audit log. */
  principal?: unknown;
  /** Cancels the call (its handler is stopped). */
  signal?: AbortSignal;
}

/** A running LAVS service. */
export interface LavsRuntime {
  readonly manifest: LavsManifest;
  /**
   * Runs a `query` or `mutation` endpoint (`lavs/call`, spec §5.2). After a mutation succeeds,
   * every watched subscription endpoint runs again and pushes its output.
   *
   * @param endpointId - the endpoint's `id`
   * @param input - its input; absent counts as `{}`
   * @returns the handler's output, valid against `schema.output`
   * @throws `LavsError`: `METHOD_NOT_FOUND`, `INVALID_PARAMS`, `PERMISSION_DENIED`, `TIMEOUT`,
   *   `HANDLER_ERROR`, `INTERNAL_ERROR` (output breaks `schema.output`)
   */
  call(endpointId: string, input?: unknown, options?: CallOptions): Promise<unknown>;
  /**
   * Watches a `subscription` endpoint (`lavs/subscribe`, spec §5.4): `listener` gets the
   * endpoint's output each time it changes, starting with the current one.
   *
   * @returns a function that stops watching
   * @throws `LavsError` `METHOD_NOT_FOUND`, `INVALID_PARAMS`
   */
  watch(
    endpointId: string,
    input: unknown,
    listener: (data: unknown) => void,
    options?: CallOptions,
  ): () => void;
  /** How many watchers (subscriptions) are active, over all endpoints. */
  readonly watcherCount: number;
  /** Pushes `data` to every watcher of `endpointId` as it is (host-initiated updates). */
  publish(endpointId: string, data: unknown): void;
  /** Stops every running handler, every watcher and every stdio MCP server it started. */
  close(): Promise<void>;
}

/**
 * Creates the runtime of a loaded manifest.
 *
 * @param loaded - from `loadManifest` / `parseManifest`
 * @param options - `logger`, `defaultTimeoutMs`, `maxOutputBytes`, `killGraceMs`
 *
 * @example
 * ```ts
 * const runtime = createLavsRuntime(await loadManifest('./lavs.json'));
 * const todos = await runtime.call('listTodos');
 * ```
 */
export function createLavsRuntime(
  loaded: LoadedManifest,
  options: LavsRuntimeOptions = {},
): LavsRuntime {
  const logger = options.logger ?? stderrAuditLogger;
  const closing = new AbortController();
  const running = new Set<Promise<unknown>>();

  const find = (endpointId: string, methods: readonly string[]): LoadedEndpoint => {
    const found = typeof endpointId === 'string' ? loaded.endpoints.get(endpointId) : undefined;
    if (found === undefined || !methods.includes(found.endpoint.method))
      throw new LavsError(
        'METHOD_NOT_FOUND',
        `no ${methods.join(' or ')} endpoint ${JSON.stringify(endpointId)}`,
      );
    return found;
  };

  const checkInput = (found: LoadedEndpoint, input: unknown): unknown => {
    // A copy: `useDefaults` fills it in, and the caller's object stays as it was.
    const value = input === undefined ? {} : structuredClone(input);
    const issues = found.checkInput(value);
    if (issues.length > 0)
      throw new LavsError('INVALID_PARAMS', describeIssues(issues), { data: { errors: issues } });
    return value;
  };

  const limits = {
    defaultTimeoutMs: options.defaultTimeoutMs ?? LAVS_RUNTIME_DEFAULTS.defaultTimeoutMs,
    maxOutputBytes: options.maxOutputBytes ?? LAVS_RUNTIME_DEFAULTS.maxOutputBytes,
    killGraceMs: options.killGraceMs ?? LAVS_RUNTIME_DEFAULTS.killGraceMs,
  };
  const mcpStdioClients = new McpStdioClients({
    baseDir: loaded.baseDir,
    killGraceMs: limits.killGraceMs,
  });
  const execute = (
    found: LoadedEndpoint,
    input: unknown,
    signal: AbortSignal | undefined,
    detail: string[],
  ) =>
    runEndpoint(found, {
      ...limits,
      baseDir: loaded.baseDir,
      input,
      detail,
      mcpStdioClients,
      signal: signal === undefined ? closing.signal : AbortSignal.any([signal, closing.signal]),
    });

  /** Runs `work` audited, tracked for `close()`. */
  const audited = async <T>(
    method: LavsAuditEntry['method'],
    endpoint: string,
    principal: unknown,
    work: (detail: string[]) => Promise<T>,
  ): Promise<T> => {
    const startedMs = performance.now();
    const detail: string[] = [];
    const promise = work(detail);
    running.add(promise);
    try {
      const value = await promise;
      logger(toAuditEntry({ method, endpoint, principal, startedMs, detail }));
      return value;
    } catch (error) {
      logger(toAuditEntry({ method, endpoint, principal, startedMs, detail, error }));
      throw error;
    } finally {
      running.delete(promise);
    }
  };

  const feeds = new SubscriptionFeeds((endpointId, input) =>
    audited('lavs/data', endpointId, null, (detail) =>
      execute(find(endpointId, ['subscription']), input, undefined, detail),
    ),
  );

  return {
    manifest: loaded.manifest,
    get watcherCount() {
      return feeds.size;
    },
    call(endpointId, input, callOptions = {}) {
      return audited('lavs/call', String(endpointId), callOptions.principal, async (detail) => {
        if (closing.signal.aborted) throw new LavsError('INTERNAL_ERROR', 'The service is closing');
        const found = find(endpointId, ['query', 'mutation']);
        const output = await execute(found, checkInput(found, input), callOptions.signal, detail);
        if (found.endpoint.method === 'mutation') feeds.refreshAll();
        return output;
      });
    },
    watch(endpointId, input, listener, callOptions = {}) {
      const facts = {
        method: 'lavs/subscribe',
        endpoint: String(endpointId),
        principal: callOptions.principal,
        startedMs: performance.now(),
      } as const;
      try {
        if (closing.signal.aborted) throw new LavsError('INTERNAL_ERROR', 'The service is closing');
        const value = checkInput(find(endpointId, ['subscription']), input);
        const stop = feeds.add(endpointId, value, listener);
        logger(toAuditEntry(facts));
        return stop;
      } catch (error) {
        logger(toAuditEntry({ ...facts, error }));
        throw error;
      }
    },
    publish(endpointId, data) {
      feeds.publish(endpointId, data);
    },
    async close() {
      closing.abort();
      feeds.clear();
      await Promise.allSettled([...running]);
      await mcpStdioClients.close();
    },
  };
}
