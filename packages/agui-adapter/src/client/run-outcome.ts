/**
 * How one run of `connectAgUi` went, and what that means: for the message it carried (the
 * outbox's delivery), and, when the run failed, what kind of failure it was (an HTTP refusal, a
 * network error — known unsent when the connection was refused — or a cut run).
 */
import { A2uiError, type A2uiErrorCode, describeError } from '@a2ui-ts/core';
import { isRetryableStatus, type OutboxDelivery, parseRetryAfter } from '@a2ui-ts/core/link';
import { RunCutError } from './guard-run-fetch.js';

/** A call of a frontend tool that a run ended with. */
export interface ToolCall {
  id: string;
  name: string;
  args: unknown;
}

/** How one run went. */
export type RunOutcome =
  | { kind: 'finished'; reset: boolean; closed: string | undefined }
  | { kind: 'run-error'; code: string | undefined; message: string; reset: boolean }
  | {
      kind: 'http-error';
      status: number;
      code: string | undefined;
      message: string;
      retryAfterMs?: number;
    }
  /** `unsent`: the request is known not to have reached the agent (the connection was refused). */
  | { kind: 'network-error'; message: string; unsent: boolean }
  /** The stream ended without `RUN_FINISHED` or `RUN_ERROR` (cut, stalled, or ag-ui#2300). */
  | { kind: 'incomplete' };

/**
 * What a run that threw means: the HTTP refusal `@ag-ui/client` reports with the response's
 * status and body (with `Retry-After` from `lastResponse`), a cut, or a network error.
 */
export function failedRunOutcome(error: unknown, lastResponse: Response | undefined): RunOutcome {
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number') {
    const payload = (error as { payload?: { error?: { code?: unknown; message?: unknown } } })
      .payload;
    return {
      kind: 'http-error',
      status,
      code: typeof payload?.error?.code === 'string' ? payload.error.code : undefined,
      message:
        typeof payload?.error?.message === 'string'
          ? payload.error.message
          : `The AG-UI endpoint answered HTTP ${status}.`,
      retryAfterMs: parseRetryAfter(lastResponse?.headers.get('retry-after')),
    };
  }
  if (RunCutError.isInstance(error)) return { kind: 'incomplete' };
  return {
    kind: 'network-error',
    message: describeError(error),
    unsent: lastResponse === undefined && isRefusedConnection(error),
  };
}

/** What the outbox makes of a run's outcome. */
export function toDelivery(outcome: RunOutcome, id: string): OutboxDelivery {
  switch (outcome.kind) {
    case 'finished':
      return outcome.reset
        ? { kind: 'answered', errors: new Map([[id, threadResetError()]]) }
        : { kind: 'answered' };
    case 'run-error':
      // A busy agent or a server shutting down: the same run again, later.
      if (outcome.code === 'LIMIT_EXCEEDED' || outcome.code === 'CONNECTION_CLOSED')
        return { kind: 'retry', reason: outcome.message };
      return {
        kind: 'answered',
        errors: new Map([[id, new A2uiError(knownCode(outcome.code), outcome.message)]]),
      };
    case 'http-error':
      if (isRetryableStatus(outcome.status))
        return {
          kind: 'retry',
          reason: outcome.message,
          retryAfterMs: outcome.retryAfterMs,
          // Refused before the run started (busy, shutting down, too slow a body): not delivered.
          unsent: REFUSED_BEFORE_RUN.has(outcome.status),
        };
      return {
        kind: 'answered',
        errors: new Map([
          [
            id,
            new A2uiError(knownCode(outcome.code), outcome.message, {
              data: { httpStatus: outcome.status },
            }),
          ],
        ]),
      };
    case 'network-error':
      return {
        kind: 'retry',
        reason: `Could not reach the AG-UI endpoint: ${outcome.message}`,
        unsent: outcome.unsent,
      };
    case 'incomplete':
      // It may have arrived: the same runId again, which the server de-duplicates.
      return { kind: 'retry', reason: 'The run ended before RUN_FINISHED.' };
  }
}

export const threadResetError = () =>
  new A2uiError(
    'CONNECTION_CLOSED',
    'The thread was reset before this message could be delivered; its surfaces are gone.',
  );

/** Statuses this adapter's server answers only before a run starts, with nothing delivered. */
const REFUSED_BEFORE_RUN = new Set([408, 429, 503]);

/** The connection was refused: the request never left this machine (Node's `ECONNREFUSED`). */
function isRefusedConnection(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if ((cause as { code?: unknown }).code === 'ECONNREFUSED') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

const KNOWN_CODES = new Set([
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'CONNECTION_CLOSED',
  'TIMEOUT',
  'MESSAGE_TOO_LARGE',
  'LIMIT_EXCEEDED',
  'NOT_SUPPORTED',
  'ABORTED',
  'INTERNAL_ERROR',
]);

function knownCode(code: string | undefined): A2uiErrorCode {
  return code && KNOWN_CODES.has(code) ? (code as A2uiErrorCode) : 'TRANSPORT_ERROR';
}
