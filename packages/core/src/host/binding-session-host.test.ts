import { describe, expect, it } from 'vitest';
import { createBindingSessionHost } from './binding-session-host.js';
import type { ConnectionSession } from './connection-session.js';

describe('createBindingSessionHost', () => {
  it('tells onAgentError the session of the connection whose hook threw', async () => {
    const reported: Array<{ error: unknown; session: ConnectionSession | undefined }> = [];
    const failure = new Error('the agent failed');
    const host = createBindingSessionHost({
      agent: {
        onConnect() {
          throw failure;
        },
      },
      onAgentError: (error, session) => reported.push({ error, session }),
    });
    const opened = await host.open({ principal: undefined, awaitTurn: true });
    expect(reported).toHaveLength(1);
    expect(reported[0]!.error).toBe(failure);
    expect(reported[0]!.session?.id).toBe(opened.connectionId);
    expect(reported[0]!.session).toBe(host.session(opened.connectionId));
    await host.close();
  });

  it('passes the host options on', async () => {
    const host = createBindingSessionHost({ agent: {}, maxSessions: 1 });
    await host.open({ principal: 'a' });
    await expect(host.open({ principal: 'b' })).resolves.toBeDefined();
    // The oldest idle connection was evicted for the new one: the cap is the one given.
    expect(host.stats().sessions).toBe(1);
    await host.close();
  });
});
