/**
 * `SessionHost.follow` over the Redis stores: the follow conformance cases on one node (its own
 * connections, Redis replay log) and on two nodes sharing one Redis, where the follower on node B
 * reads what the owner on node A appends, and holds A's connection out of its grace period.
 */
import { createSessionHost } from '@a2ui-ts/core/host';
import { describeFollowConformance } from '@a2ui-ts/core/testing';
import { startNodes } from '../test/stores.js';

describeFollowConformance('one node over redis', {
  async start(agent) {
    const stores = await startNodes(1);
    const host = createSessionHost({ agent, ...stores.nodes[0]!.hostOptions });
    return { owner: host, follower: host, close: () => stores.close() };
  },
});

describeFollowConformance('two nodes sharing one redis', {
  async start(agent) {
    const stores = await startNodes(2);
    const [a, b] = stores.nodes;
    return {
      owner: createSessionHost({ agent, ...a!.hostOptions }),
      follower: createSessionHost({ agent, ...b!.hostOptions }),
      close: () => stores.close(),
    };
  },
});
