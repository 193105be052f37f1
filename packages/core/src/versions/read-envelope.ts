/**
 * The catalog-independent envelope checks every version module shares: an object with `version`
 * and exactly one message kind, and nothing else.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { isRecord } from '../protocol/guards.js';
import { encodeSegment } from '../state/json-pointer.js';

/** Options of {@link readEnvelope}. */
export interface ReadEnvelopeOptions {
  /** The version's name, for messages (`"v1.0"`). */
  versionName: string;
  /**
   * Wording when a message carries more than one kind; the conformance suite matches each
   * version's own phrase.
   * @default "Message contains multiple update types"
   */
  multipleKindsMessage?: string;
  /**
   * Names another registered version that uses `key` as a message kind, for the clear
   * "mixes two versions" error.
   * @default none
   */
  otherVersionOfKind?: (key: string) => string | undefined;
}

/** A version-aware {@link A2uiError} `VALIDATION_FAILED`. */
export function specError(path: string, message: string, surfaceId?: string): A2uiError {
  return new A2uiError('VALIDATION_FAILED', message, {
    path,
    ...(surfaceId === undefined ? {} : { surfaceId }),
  });
}

/** The `surfaceId` of a message body, when it can be read. */
export function readSurfaceId(body: unknown): string | undefined {
  return isRecord(body) && typeof body.surfaceId === 'string' ? body.surfaceId : undefined;
}

/**
 * The one message kind of `message` and its body.
 *
 * @throws A2uiError `VALIDATION_FAILED`: no kind, several kinds, a kind of another version, an
 *   unexpected key beside the kind, or a body that is not an object
 */
export function readEnvelope(
  message: Readonly<Record<string, unknown>>,
  kinds: readonly string[],
  options: ReadEnvelopeOptions,
): { kind: string; body: Record<string, unknown> } {
  // One pass, no array unless the message carries two kinds: this runs for every message.
  let kind: string | undefined;
  let twoKinds = false;
  let extra: string | undefined;
  for (const key in message) {
    if (!Object.hasOwn(message, key)) continue;
    if (kinds.includes(key)) {
      if (kind === undefined) kind = key;
      else twoKinds = true;
    } else if (key !== 'version') extra ??= key;
  }
  if (twoKinds) {
    const present = Object.keys(message).filter((key) => kinds.includes(key));
    throw specError(
      `/${present[1]}`,
      `${options.multipleKindsMessage ?? 'Message contains multiple update types'}: ${present.map((kind) => `"${kind}"`).join(' and ')}; send them as separate messages.`,
    );
  }
  const foreign = extra === undefined ? undefined : options.otherVersionOfKind?.(extra);
  if (extra !== undefined && foreign !== undefined) {
    throw specError(
      `/${encodeSegment(extra)}`,
      `Message mixes protocol versions: "${extra}" is a ${foreign} message, but this message says "version": "${options.versionName}".`,
    );
  }
  if (kind === undefined) {
    throw specError(
      extra === undefined ? '' : `/${encodeSegment(extra)}`,
      extra === undefined
        ? `A ${options.versionName} message needs exactly one of ${kinds.join(', ')}.`
        : `Unknown ${options.versionName} message type "${extra}"; expected one of ${kinds.join(', ')}.`,
    );
  }
  const body = message[kind];
  if (!isRecord(body)) throw specError(`/${kind}`, `"${kind}" must be an object.`);
  if (extra !== undefined) {
    throw specError(
      `/${encodeSegment(extra)}`,
      `Unexpected property "${extra}" beside "${kind}".`,
      readSurfaceId(body),
    );
  }
  return { kind, body };
}
