/**
 * Server nodes in processes of their own, sharing the test Redis, and clients whose event stream
 * and JSON-RPC posts go to nodes of the test's choosing (as a load balancer without sticky
 * sessions would send them).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  connectSseJsonRpc,
  type SseJsonRpcClientOptions,
  type SseJsonRpcTransport,
} from '@a2ui-ts/transport-sse-jsonrpc';
import type { TestNodeConfig, TestNodeReport } from './node-main.js';

/** One server node process. */
export interface TestNode {
  readonly url: string;
  readonly nodeId: string;
  /** Actions its agent handled, in order (`connectionId name`). */
  readonly actions: string[];
  /** Connections its agent saw open. */
  readonly connects: string[];
  /** Agent function runs and renderer answers its agent got (`id name`, see node-main). */
  readonly functions: string[];
  stats(): Promise<Record<string, unknown>>;
  /** SIGKILL: the node dies without a word. */
  kill(): Promise<void>;
  /** Closes the server and its stores, then the process exits. */
  close(): Promise<void>;
}

const NODE_MAIN = fileURLToPath(new URL('./node-main.ts', import.meta.url));

/**
 * Leases long enough that a node busy with 1,000 clients on a shared 2-core machine still renews
 * in time; tests of a dying node shorten them.
 */
export const NODE_DEFAULTS: Omit<TestNodeConfig, 'redisUrl' | 'keyPrefix'> = {
  leaseTtlMs: 5_000,
  keyTtlMs: 5_000,
  reconnectGraceMs: 30_000,
  routeTimeoutMs: 10_000,
  pushIntervalMs: 0,
};

/** Starts a node process and resolves once it listens. */
export async function startNode(
  config: Pick<TestNodeConfig, 'redisUrl' | 'keyPrefix'> & Partial<TestNodeConfig>,
): Promise<TestNode> {
  const child: ChildProcess = fork(NODE_MAIN, [], {
    execArgv: ['--conditions=@a2ui-ts/source', '--import', 'tsx'],
    env: { ...process.env, A2UI_TEST_NODE: JSON.stringify({ ...NODE_DEFAULTS, ...config }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const actions: string[] = [];
  const connects: string[] = [];
  const functions: string[] = [];
  const waiting = new Map<number, (report: TestNodeReport) => void>();
  let requests = 0;
  const ready = new Promise<{ url: string; nodeId: string }>((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`The test node exited (${code}) before it listened.`)),
    );
    child.on('message', (report: TestNodeReport) => {
      if (report.type === 'ready') resolve(report);
      else if (report.type === 'action') actions.push(`${report.connectionId} ${report.name}`);
      else if (report.type === 'connect') connects.push(report.connectionId);
      else if (report.type === 'function') functions.push(`${report.connectionId} ${report.name}`);
      else waiting.get(report.id)?.(report);
    });
  });
  const { url, nodeId } = await ready;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const ask = (type: 'stats' | 'close') =>
    new Promise<TestNodeReport>((resolve) => {
      const id = ++requests;
      waiting.set(id, resolve);
      child.send({ type, id });
    });
  return {
    url,
    nodeId,
    actions,
    connects,
    functions,
    async stats() {
      const answer = await ask('stats');
      return answer.type === 'stats' ? answer.stats : {};
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      await Promise.race([ask('close'), exited]);
      await exited;
    },
  };
}

/** Where a client's requests go: its event stream to one node, its posts to another. */
export interface Routes {
  sse: string;
  rpc: string;
}

/** A fetch that sends `GET …/sse` to `routes.sse` and everything else to `routes.rpc`. */
export function routedFetch(routes: Routes): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const base = new URL(url.pathname.endsWith('/sse') ? routes.sse : routes.rpc);
    url.protocol = base.protocol;
    url.host = base.host;
    return fetch(url, init);
  };
}

/** Fast reconnects for tests. */
export const FAST_RECONNECT = { initialDelayMs: 5, maxDelayMs: 50, minRetryMs: 5 } as const;

/** A client whose stream and posts go where `routes` says (changeable while it runs). */
export function connectRouted(
  routes: Routes,
  options: Partial<SseJsonRpcClientOptions> = {},
): SseJsonRpcTransport {
  return connectSseJsonRpc({
    url: routes.sse,
    fetch: routedFetch(routes),
    reconnect: FAST_RECONNECT,
    ...options,
  });
}
