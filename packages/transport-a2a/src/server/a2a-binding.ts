/**
 * What the A2A request handler, the executor and the route share: the session host, the binding's
 * session state, the task store, the bounds, and how a request's principal and A2UI session are
 * found. A context's A2UI session is scoped to the principal: its host connection id is the
 * context id prefixed with a hash of the principal, so one principal can never reach, disturb or
 * even detect another's session — A2A's own rule for tasks (`@a2a-js/sdk` scopes its stores by
 * user), since context ids are chosen by clients and are not secrets.
 */

import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { defaultPrincipalKey, principalScope, type SessionHost } from '@a2ui-ts/core/host';
import type { A2aSessions } from './a2a-sessions.js';
import type { ParseA2uiRequestLimits } from './parse-a2ui-request.js';
import type { StreamBuffer } from './stream-buffer.js';

/** Keys of `ServerCallContext.state` the binding uses. */
export const STATE_KEYS = {
  /** What `authenticate` returned for the request (set by the route). */
  principal: 'a2ui-ts.principal',
  /** The request as the handler prepared it for the executor. */
  prepared: 'a2ui-ts.prepared',
  /** Aborts when the client goes away (set by the route). */
  signal: 'a2ui-ts.signal',
  /** The `A2uiError` the request was refused with (the route sets the HTTP status from it). */
  refusal: 'a2ui-ts.refusal',
  /** Request headers (the SDK's own key). */
  headers: 'headers',
} as const;

/** Everything the binding's parts share. */
export interface A2aBinding {
  readonly host: SessionHost;
  readonly sessions: A2aSessions;
  readonly taskStore: TaskStore;
  readonly limits: ParseA2uiRequestLimits;
  /** Groups principals (the host's `principalKey`). */
  readonly principalKey: (principal: unknown) => unknown;
  /** Most bytes of A2UI messages in one status update. */
  readonly maxUpdateBytes: number;
  /** Most bytes a stream holds for a client that reads too slowly (see `StreamBuffer`). */
  readonly maxBufferedBytes: number;
  /** What each open stream holds for its client (`stats().bufferedBytes`). */
  readonly streamBuffers: Set<StreamBuffer>;
  /** Refuse clients that neither activate the A2UI extension nor send capabilities. */
  readonly requireA2uiClient: boolean;
  /** Reports a failure that no request can answer (a task store write), with the context id. */
  reportError(error: unknown, contextId: string): void;
}

/** Longest context id accepted, in characters (the session id adds a 23-character scope). */
export const MAX_CONTEXT_ID_LENGTH = 200;

/**
 * The principal of a request: what the route's `authenticate` returned, or — when the handler is
 * mounted by other means (the SDK's Express handlers) — the authenticated user's name.
 */
export function principalOf(context: ServerCallContext): unknown {
  if (context.state.has(STATE_KEYS.principal)) return context.state.get(STATE_KEYS.principal);
  return context.user?.isAuthenticated ? context.user.userName : undefined;
}

/** The request's headers, lower-cased names, as the route stored them. */
export function headerOf(context: ServerCallContext, name: string): string | undefined {
  const headers = context.state.get(STATE_KEYS.headers) as
    | Record<string, string | string[] | undefined>
    | undefined;
  const value = headers?.[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Aborts when the request's client went away (when the route says). */
export function signalOf(context: ServerCallContext): AbortSignal | undefined {
  return context.state.get(STATE_KEYS.signal) as AbortSignal | undefined;
}

/** The scope {@link sessionIdOf} puts before a context id: core's `principalScope` and a dot. */
const SCOPE_PREFIX = /^[A-Za-z0-9_-]{22}\./;

/**
 * The context id of a host session id: the id without the principal's scope that
 * {@link sessionIdOf} adds (`scoped`: requests are authenticated, so every id has one).
 */
export function contextIdOf(sessionId: string, scoped: boolean): string {
  return scoped ? sessionId.replace(SCOPE_PREFIX, '') : sessionId;
}

/** The host connection id of `contextId`'s A2UI session for `principal`. */
export async function sessionIdOf(
  binding: Pick<A2aBinding, 'principalKey'>,
  principal: unknown,
  contextId: string,
): Promise<string> {
  if (principal === undefined) return contextId;
  // Typed: the principals `1` and `"1"` have scopes of their own.
  const key = binding.principalKey(principal) ?? defaultPrincipalKey(principal);
  return `${await principalScope(key)}.${contextId}`;
}
