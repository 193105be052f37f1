/**
 * The client connector (ARCHITECTURE §4 "AG-UI"): a `ClientTransport` on `@ag-ui/client`'s
 * `HttpAgent`, so any AG-UI agent's A2UI — ours in any mode, or one we did not write — renders in
 * `<A2UIRenderer>`. Each A2UI action becomes a run with `forwardedProps.a2uiAction` and the client
 * metadata; the first run opens the thread; frontend tools the page declares are run when a run
 * ends with calls to them, and their results start the next run. There is no server push in
 * AG-UI: what an agent sends between runs arrives with the next one.
 *
 * Reconnects (of the first run), the outbox (one run at a time, each action retried with the same
 * `runId` until answered, backoff on refusal) and the status are core's link kit. The link is
 * `AgUiClientLink`; this file is the transport it is seen as.
 *
 * Nothing is lost when a run is cut: the thread's `a2uiSeq` travels in the state the client sends
 * back (this keeps it current also for what arrives in activity messages), so a run that ends
 * without `RUN_FINISHED` — cut, or silent past `idleTimeoutMs` — is caught up at once by another
 * run, which the server answers with exactly the messages after that seq.
 */
import {
  A2uiError,
  type ClientMessage,
  type ClientMessageMetadata,
  createConnectionId,
  type SendOptions,
} from '@a2ui-ts/core';
import { STATE_VERSION_KEY } from '../protocol/constants.js';
import { AgUiClientLink } from './agui-client-link.js';
import type { AgUiTransport, ConnectAgUiOptions } from './agui-client-options.js';
import { toDelivery } from './run-outcome.js';

export type { AgUiFrontendTool, AgUiTransport, ConnectAgUiOptions } from './agui-client-options.js';
export { AGUI_CLIENT_DEFAULTS } from './agui-client-options.js';

/**
 * Connects to an AG-UI agent. The first run starts when `A2uiClient` calls `events()`; `send`
 * may be called before, and waits for it.
 *
 * @param options - see {@link ConnectAgUiOptions}
 * @returns a `ClientTransport` with `agent`, `threadId`, `status`, `pendingMessages` and `run()`
 *
 * @example
 * ```ts
 * const client = new A2uiClient({
 *   transport: connectAgUi({ url: '/agent', tools: [{ name: 'getTimeZone', description: 'The user time zone',
 *     handler: () => Intl.DateTimeFormat().resolvedOptions().timeZone }] }),
 * });
 * client.connect();
 * ```
 */
export function connectAgUi(options: ConnectAgUiOptions): AgUiTransport {
  const link = new AgUiClientLink(options);
  const { agent, shell, outbox, queue } = link;
  return {
    agent,
    get threadId() {
      return agent.threadId;
    },
    get status() {
      return shell.status.status;
    },
    get pendingMessages() {
      return outbox.pending;
    },
    get runs() {
      return link.runs;
    },
    get a2uiVersion() {
      return this.protocolVersion;
    },
    get protocolVersion() {
      const state = agent.state as Record<string, unknown> | undefined;
      const answered = state?.[STATE_VERSION_KEY];
      return typeof answered === 'string' ? answered : undefined;
    },
    events: shell.events,
    send: (
      message: ClientMessage,
      metadata: ClientMessageMetadata,
      sendOptions: SendOptions = {},
    ) => shell.sendWhileOpen(() => outbox.enqueue({ message, metadata }, sendOptions)),
    async run(runOptions = {}) {
      if (shell.closed) throw new A2uiError('CONNECTION_CLOSED', 'The transport is closed.');
      const result = await queue.exclusive(() => {
        if (runOptions.text !== undefined)
          agent.addMessage({ id: createConnectionId(), role: 'user', content: runOptions.text });
        return link.runOnce({});
      });
      link.handleEnd(result.outcome);
      await link.followUp(result);
      const failure = toDelivery(result.outcome, '');
      if (failure.kind === 'retry') throw new A2uiError('TRANSPORT_ERROR', failure.reason);
      const error = failure.kind === 'answered' ? failure.errors?.get('') : undefined;
      if (error) throw error;
    },
    close: shell.close,
  };
}
