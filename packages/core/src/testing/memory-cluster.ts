/**
 * An in-process stand-in for a shared store (Redis): one connection registry, one replay log per
 * connection and a router between session hosts that all live in this process. Everything that
 * crosses it is copied through JSON, as a real store would, and message objects are dropped from
 * log entries. Tests use it to prove that the session host's scale-out seam works without Redis:
 * a stream on one node, actions through another, resumes anywhere, a node that dies.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import {
  createMemoryConnectionRegistry,
  type MemoryConnectionRegistry,
} from '../host/connection-registry.js';
import { createMemoryReplayLog, type ReplayLog, type ReplayLogLimits } from '../host/replay-log.js';
import type {
  RoutedRequest,
  RoutedRequestHandler,
  RoutedResponse,
  SessionRouter,
} from '../host/session-router.js';

/** A cluster of session hosts in one process. */
export interface MemoryCluster {
  /** The shared registry. */
  readonly registry: MemoryConnectionRegistry;
  /** Opens the shared replay log of a connection (the same one on every node). */
  createReplayLog(connectionId: string): ReplayLog;
  /** The router of node `nodeId`. */
  router(nodeId: string): SessionRouter;
  /** Node `nodeId` dies: its lease expires, nothing reaches it, the others are told. */
  kill(nodeId: string): void;
  /** Replay logs that exist (for leak checks). */
  readonly logCount: number;
  /** Requests forwarded between nodes so far. */
  readonly forwarded: number;
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Creates a {@link MemoryCluster}.
 *
 * @param limits - limits of each connection's replay log
 *
 * @example
 * ```ts
 * const cluster = createMemoryCluster();
 * const a = createSessionHost({ agent, registry: cluster.registry, createReplayLog: cluster.createReplayLog, router: cluster.router('a') });
 * const b = createSessionHost({ agent, registry: cluster.registry, createReplayLog: cluster.createReplayLog, router: cluster.router('b') });
 * ```
 */
export function createMemoryCluster(limits: ReplayLogLimits = {}): MemoryCluster {
  const registry = createMemoryConnectionRegistry();
  const logs = new Map<string, ReplayLog>();
  const handlers = new Map<string, RoutedRequestHandler>();
  const dead = new Set<string>();
  const downListeners = new Set<(id: string) => void>();
  let forwarded = 0;

  const createReplayLog = (connectionId: string): ReplayLog => {
    const existing = logs.get(connectionId);
    if (existing) return existing;
    const inner = createMemoryReplayLog(limits);
    const shared: ReplayLog = {
      append: (entries) =>
        inner.append(entries.map((entry) => ({ seq: entry.seq, data: entry.data }))),
      read: (afterSeq, options) => inner.read(afterSeq, options),
      lastSeq: () => inner.lastSeq(),
      trim: (throughSeq) => inner.trim(throughSeq),
      size: () => inner.size(),
      subscribe: (listener) => inner.subscribe(listener),
      end: (reason) => {
        logs.delete(connectionId);
        inner.end(reason);
      },
    };
    logs.set(connectionId, shared);
    return shared;
  };

  const router = (nodeId: string): SessionRouter => ({
    nodeId,
    async forward(owner, request: RoutedRequest, options = {}): Promise<RoutedResponse> {
      const handler = handlers.get(owner);
      if (!handler || dead.has(owner) || dead.has(nodeId))
        throw new A2uiError('CONNECTION_CLOSED', `Node ${owner} is not reachable.`);
      forwarded++;
      // As across processes: the signal reaches the owner, which stops waiting for the turn.
      const stop = new AbortController();
      const onAbort = () => stop.abort();
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
      const answer = handler(copy(request), { signal: stop.signal }).then(copy);
      return new Promise<RoutedResponse>((resolve, reject) => {
        const timer =
          options.timeoutMs === undefined
            ? undefined
            : setTimeout(
                () => reject(new A2uiError('TIMEOUT', `Node ${owner} did not answer.`)),
                options.timeoutMs,
              );
        answer.then(resolve, reject).finally(() => {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
        });
      });
    },
    listen(handler) {
      handlers.set(nodeId, handler);
      return () => {
        if (handlers.get(nodeId) === handler) handlers.delete(nodeId);
      };
    },
    isAlive: (id) => !dead.has(id) && handlers.has(id),
    onNodeDown(listener) {
      const scoped = (id: string) => {
        if (id !== nodeId && !dead.has(nodeId)) listener(id);
      };
      downListeners.add(scoped);
      return () => {
        downListeners.delete(scoped);
      };
    },
  });

  return {
    registry,
    createReplayLog,
    router,
    kill(nodeId) {
      dead.add(nodeId);
      handlers.delete(nodeId);
      for (const listener of [...downListeners]) listener(nodeId);
    },
    get logCount() {
      return logs.size;
    },
    get forwarded() {
      return forwarded;
    },
  };
}
