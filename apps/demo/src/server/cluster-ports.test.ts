import { describe, expect, it } from 'vitest';
import { clusterPorts, DEFAULT_CLUSTER_PORT } from './cluster-ports.js';

// The default ports of the repository's other servers: `pnpm --filter @a2ui-ts/demo start` / `dev`
// (src/server/main.ts, dev.ts) and the react quick start (apps/react-quick-start/src/server.ts).
const OTHER_DEFAULT_PORTS = [5173, 5174];

describe('clusterPorts', () => {
  it('listens by default where no other app of the repository does', () => {
    const ports = clusterPorts({});
    expect(ports).toEqual({ balancer: DEFAULT_CLUSTER_PORT, nodes: [5181, 5182] });
    for (const port of [ports.balancer, ...ports.nodes])
      expect(OTHER_DEFAULT_PORTS).not.toContain(port);
  });

  it('takes the balancer port from PORT, and the nodes the next two', () => {
    expect(clusterPorts({ PORT: '6000' })).toEqual({ balancer: 6000, nodes: [6001, 6002] });
  });

  it('refuses a PORT that is not a port the three fit above, naming it', () => {
    for (const PORT of ['abc', '0', '65534', '80.5']) {
      expect(() => clusterPorts({ PORT })).toThrow(
        `PORT must be a port number from 1 to 65533 (the nodes take the next two), not "${PORT}".`,
      );
    }
  });
});
