/**
 * `pnpm --filter @a2ui-ts/demo cluster` (or `pnpm demo:cluster`): the demo as two nodes sharing one
 * Redis behind a round-robin balancer without sticky sessions — open `http://localhost:5180` and
 * every request (the event stream, each action, each reconnect) alternates between the nodes on
 * 5181 and 5182, so the stream is on one node while the actions reach the other. A2A and AG-UI
 * keep per-node state (docs/deployment.md): the balancer sends each of their mounts to one node.
 *
 * Uses the Redis at `A2UI_REDIS_URL`; without it, starts a local `redis-server` (the Debian
 * package) on a free port. `PORT` sets the balancer's port (the nodes take the next two); the
 * default keeps clear of the demo's and the react quick start's ports (`cluster-ports.ts`).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startRedisServer, startRoundRobinProxy } from '@a2ui-ts/redis/testing';
import { clusterPorts } from './cluster-ports.js';
import { clusterAffinity, SERVER_TRANSPORTS } from './transports.js';

const { balancer: port, nodes: nodePorts } = clusterPorts(process.env);
const hostname = process.env.HOST ?? '127.0.0.1';
const ownRedis = process.env.A2UI_REDIS_URL ? undefined : await startRedisServer();
const redisUrl = process.env.A2UI_REDIS_URL || ownRedis!.url;
const main = fileURLToPath(new URL('./main.ts', import.meta.url));

const nodes: ChildProcess[] = nodePorts.map((nodePort) =>
  fork(main, [], {
    execArgv: ['--conditions=@a2ui-ts/source', '--import', 'tsx'],
    env: { ...process.env, PORT: String(nodePort), HOST: hostname, A2UI_REDIS_URL: redisUrl },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  }),
);
const stop = async (code: number): Promise<never> => {
  for (const node of nodes) node.kill('SIGTERM');
  await Promise.all(
    nodes.map(
      (node) =>
        new Promise<void>((resolve) =>
          node.exitCode !== null ? resolve() : node.once('exit', () => resolve()),
        ),
    ),
  );
  await ownRedis?.stop();
  process.exit(code);
};
for (const node of nodes) node.once('exit', (code) => void stop(code ?? 1));
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));

// Each node answers /api/health once it listens.
const targets = nodePorts.map((nodePort) => `http://${hostname}:${nodePort}`);
for (const target of targets) {
  for (let attempt = 0; ; attempt++) {
    const healthy = await fetch(`${target}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (attempt > 600) {
      process.stderr.write(`The demo node at ${target} did not start.\n`);
      await stop(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const balancer = await startRoundRobinProxy(targets, { port, hostname, affinity: clusterAffinity });
const pinned = SERVER_TRANSPORTS.filter((transport) => !transport.anyNode);
process.stdout.write(
  `\n  A2UI demo cluster running — open ${balancer.url.replace('127.0.0.1', 'localhost')}\n` +
    `  (round robin over ${targets.join(' and ')}, Redis at ${redisUrl};\n` +
    `  ${pinned.map((transport) => transport.label).join(', ')}: each agent on one node, see docs/deployment.md)\n\n`,
);
