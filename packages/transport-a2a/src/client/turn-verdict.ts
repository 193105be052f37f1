/**
 * What the metadata of a step's final event says about the A2UI session (this package's server
 * puts it there, `A2UI_METADATA`): the session was reset or closed, the agent refused the message
 * (`a2uiError`), or it was busy and the message is to be sent again.
 */
import { A2uiError, type TroubleCause } from '@a2ui-ts/core';
import { troubleCauseOf } from '@a2ui-ts/core/link';
import { A2UI_METADATA } from '../protocol/a2ui-extension.js';

/** The session's fate as a final event's metadata tells it; `undefined`: all is well. */
export type TurnVerdict =
  /** The server no longer holds the session (or the messages missed): start a new one. */
  | { kind: 'reset'; reason: string }
  /** The agent closed the session; `error` is its refusal of the message, when it said one. */
  | { kind: 'closed'; error: A2uiError | undefined }
  /** The agent refused the message. */
  | { kind: 'refused'; error: A2uiError }
  /** The agent was busy (`LIMIT_EXCEEDED`): send the message again. */
  | { kind: 'retry'; cause: TroubleCause }
  | undefined;

/** Reads a final event's metadata (see the module comment). */
export function turnVerdictOf(metadata: Record<string, unknown> | undefined): TurnVerdict {
  const meta = metadata ?? {};
  const reset = meta[A2UI_METADATA.reset];
  const sessionClosed = meta[A2UI_METADATA.sessionClosed];
  if (typeof reset === 'string' || sessionClosed === 'grace-expired' || sessionClosed === 'reset')
    return {
      kind: 'reset',
      reason:
        reset === 'replay-gap'
          ? 'The messages missed while the link was down are no longer kept.'
          : 'The server no longer knows this session (expired or restarted).',
    };
  const refusal = meta[A2UI_METADATA.error] as
    | { code?: string; message?: string; retryAfterMs?: number; reason?: string }
    | undefined;
  const refusalError =
    refusal && typeof refusal.code === 'string'
      ? new A2uiError(
          refusal.code as A2uiError['code'],
          refusal.message ?? 'The agent refused the message.',
        )
      : undefined;
  // The session closed before the message's turn ran: it was not applied.
  if (sessionClosed === 'server-closed') return { kind: 'closed', error: refusalError };
  if (refusal && refusalError) {
    if (refusal.code === 'LIMIT_EXCEEDED') return { kind: 'retry', cause: troubleCauseOf(refusal) };
    return { kind: 'refused', error: refusalError };
  }
  return undefined;
}
