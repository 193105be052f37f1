/**
 * The failure of one agent message: carries the spec `error` object to report, and leaves the
 * state as it was before the message.
 */
import { VALIDATION_FAILED } from '../protocol/constants.js';
import type { ClientError } from '../protocol/messages.js';

/** A failure while applying one message; carries the spec error. */
export class MessageFailure extends Error {
  constructor(readonly clientError: ClientError) {
    super(clientError.message);
  }

  /** `VALIDATION_FAILED` (or `UNALLOWED_*`) with a JSON Pointer into the message. */
  static validation(
    surfaceId: string | undefined,
    path: string,
    message: string,
    code: string = VALIDATION_FAILED,
  ): MessageFailure {
    return new MessageFailure({
      code,
      ...(surfaceId === undefined ? {} : { surfaceId }),
      path,
      message,
    } as ClientError);
  }

  /** Any other code, extra fields allowed. */
  static generic(
    code: string,
    surfaceId: string | undefined,
    message: string,
    extra: Record<string, unknown> = {},
  ): MessageFailure {
    return new MessageFailure({
      code,
      ...(surfaceId === undefined ? {} : { surfaceId }),
      message,
      ...extra,
    });
  }
}
