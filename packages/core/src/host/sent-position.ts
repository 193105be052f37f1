/**
 * The rule every binding applies to a position a client names in a connection's stream — an
 * acknowledgement (`ack {seq}`), a long poll's `after`, a resume's last seq: it can only be one the
 * connection reached. A position beyond the last message sent claims messages that never existed
 * (a forged or corrupted client state): an acknowledgement of it is refused and trims nothing, a
 * read or resume from it is a replay gap (the client resets), and the connection, its replay log
 * and its other readers are left as they were.
 */
import { A2uiError } from '../errors/a2ui-error.js';

/** `data.reason` of the refusal {@link beyondSentError} makes. */
export const BEYOND_SENT_REASON = 'beyond-sent';

/**
 * The refusal of an acknowledgement beyond what was sent: `VALIDATION_FAILED` at `path`, with
 * `data: { reason: 'beyond-sent', seq, lastSeq }`.
 *
 * @example
 * ```ts
 * beyondSentError(999, 3).message; // 'seq 999 is beyond the last message sent (3).'
 * ```
 */
export function beyondSentError(seq: number, lastSeq: number, path = '/seq'): A2uiError {
  return new A2uiError(
    'VALIDATION_FAILED',
    `seq ${seq} is beyond the last message sent (${lastSeq}).`,
    {
      path,
      data: { reason: BEYOND_SENT_REASON, seq, lastSeq },
    },
  );
}

/** Whether `error` is a refusal of {@link beyondSentError}; its `data.lastSeq` is then a number. */
export function isBeyondSentError(
  error: unknown,
): error is A2uiError & { data: { lastSeq: number } } {
  return A2uiError.isInstance(error) && error.data?.reason === BEYOND_SENT_REASON;
}
