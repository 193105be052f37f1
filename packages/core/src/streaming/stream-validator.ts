/** How the streaming parser checks a message before sending it. */
import { validateServerMessage } from '../validation/validate-messages.js';
import type { ValidationIssue } from '../validation/validation-issue.js';
import type { A2uiStreamVersion } from './stream-dialect.js';
import type { JsonObject } from './stream-types.js';

/** What a stream validator is told about the message it checks. */
export interface A2uiStreamValidationContext {
  /** The message is a partial one the parser built from what has arrived so far. */
  readonly partial: boolean;
  readonly version: A2uiStreamVersion;
}

/**
 * Checks one message the streaming parser is about to send.
 *
 * @returns `[]` when the message may be sent, else the issues (JSON Pointers into `message`).
 */
export type A2uiStreamValidator = (
  message: JsonObject,
  context: A2uiStreamValidationContext,
) => readonly ValidationIssue[];

/**
 * The validator used when none is given: core's v0.9 schema and built-in catalog validation
 * for v0.9; none for v0.8 and the v1.0 candidate (core reads those through its version
 * layer, not these validators).
 */
export function defaultStreamValidator(
  version: A2uiStreamVersion,
): A2uiStreamValidator | undefined {
  if (version !== 'v0.9') return undefined;
  return (message) => validateServerMessage(message);
}
