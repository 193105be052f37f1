/**
 * The session host of a server binding as its users configure it: the host's options, with an
 * `onAgentError` that is told the connection's session (what an application logs or acts on)
 * rather than its id. Every streaming and turn-based binding (SSE + JSON-RPC, WebSocket, REST,
 * AG-UI) takes these options and builds its host with {@link createBindingSessionHost}.
 */
import type { ConnectionSession } from './connection-session.js';
import { createSessionHost, type SessionHost, type SessionHostOptions } from './session-host.js';

/** {@link SessionHostOptions} of a binding: `onAgentError` receives the session. */
export interface BindingSessionHostOptions extends Omit<SessionHostOptions, 'onAgentError'> {
  /** Receives errors thrown by agent hooks (with their session when it runs here). @default console.error */
  onAgentError?: (error: unknown, session: ConnectionSession | undefined) => void;
}

/**
 * Creates the session host of a binding: {@link createSessionHost} with `options`, whose
 * `onAgentError` (if any) is called with the session of the connection the error came from
 * (`undefined` when it does not run on this node, or is gone).
 *
 * @param options - the binding's options (its own ones are ignored by the host)
 * @returns the host
 *
 * @example
 * ```ts
 * const host = createBindingSessionHost({ ...options, reconnectGraceMs: options.reconnectGraceMs ?? 60_000 });
 * ```
 */
export function createBindingSessionHost(options: BindingSessionHostOptions): SessionHost {
  const { onAgentError } = options;
  const host: SessionHost = createSessionHost({
    ...options,
    onAgentError: onAgentError
      ? (error, connectionId) => onAgentError(error, host.session(connectionId))
      : undefined,
  });
  return host;
}
