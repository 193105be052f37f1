/**
 * The ports of `pnpm demo:cluster`: the balancer's, and its two nodes' right after it. The default
 * keeps clear of the ports the repository's other apps listen on by default — the demo's 5173 and
 * the react quick start's 5174 — so that any of them runs beside the cluster.
 */

/** The balancer's port when `PORT` is not set; the nodes take 5181 and 5182. */
export const DEFAULT_CLUSTER_PORT = 5180;

/** Where the cluster listens. */
export interface ClusterPorts {
  /** The round-robin balancer: the URL to open. */
  readonly balancer: number;
  /** The two demo nodes behind it. */
  readonly nodes: readonly [number, number];
}

/**
 * The cluster's ports from `env.PORT` (the balancer's; the nodes take the next two).
 * @throws Error naming `PORT` when it is not a port number the three fit above
 */
export function clusterPorts(env: { PORT?: string | undefined }): ClusterPorts {
  const balancer =
    env.PORT === undefined || env.PORT === '' ? DEFAULT_CLUSTER_PORT : Number(env.PORT);
  if (!Number.isInteger(balancer) || balancer < 1 || balancer > 65_533) {
    throw new Error(
      `PORT must be a port number from 1 to 65533 (the nodes take the next two), not "${env.PORT}".`,
    );
  }
  return { balancer, nodes: [balancer + 1, balancer + 2] };
}
