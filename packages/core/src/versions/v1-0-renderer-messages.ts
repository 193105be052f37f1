/**
 * The check of v1.0's `action` and `error` renderer→agent messages (`renderer_to_agent.json`),
 * as a server receives them from a client that negotiated v1.0. The function-call messages have
 * their own check (`rpc/function-call-messages.ts`).
 */
import { isRecord } from '../protocol/guards.js';
import { validateClientMessage } from '../validation/validate-messages.js';
import type { ValidationIssue } from '../validation/validation-issue.js';
import { V1_0_ENVELOPE_VERSIONS } from './v1-0-spelling.js';

/** Error codes of v1.0's first `error` branch: they need `surfaceId` and `path`, and nothing else. */
const PATH_ERROR_CODES = new Set(['VALIDATION_FAILED', 'UNALLOWED_PARENT', 'UNALLOWED_CHILD']);
const PATH_ERROR_KEYS = new Set(['code', 'surfaceId', 'path', 'message']);
/** `common_types.json#/$defs/Extensions`: keys are UAX #31 identifiers. */
const EXTENSION_KEY = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;

const issue = (path: string, message: string, keyword?: string): ValidationIssue[] => [
  keyword ? { path, message, keyword } : { path, message },
];

/**
 * Whether `message` is a v1.0 `action` or `error` envelope (`"version": "v1.0"` or `"1.0"`).
 * An `error` that carries a `functionCallId` answers a function call and is not one of these.
 */
export function isV10ActionOrError(message: unknown): boolean {
  if (!isRecord(message) || !V1_0_ENVELOPE_VERSIONS.includes(message.version as string))
    return false;
  if ('action' in message) return true;
  return 'error' in message && !(isRecord(message.error) && 'functionCallId' in message.error);
}

/**
 * Checks a v1.0 `action` or `error` message. The fields v1.0 shares with v0.9 get v0.9's schema
 * check (the same wording and pointers); `action.userMessage`, `action.metadata.extensions` and
 * the `error` branches (`UNALLOWED_PARENT` / `UNALLOWED_CHILD` with a `path`) are checked here.
 *
 * @param message - A message {@link isV10ActionOrError} accepted.
 * @returns Issues with JSON Pointers into the message; empty when it is valid.
 *
 * @example
 * ```ts
 * checkV10ActionOrError({ version: 'v1.0', error: { code: 'UNALLOWED_CHILD', surfaceId: 's', message: 'No.' } });
 * // [{ path: '/error/path', message: 'Missing required property "path".', keyword: 'required' }]
 * ```
 */
export function checkV10ActionOrError(message: Record<string, unknown>): ValidationIssue[] {
  const keys = Object.keys(message).filter((key) => key !== 'version');
  if (keys.length !== 1)
    return issue('', `Expected exactly one message key beside "version", got ${keys.join(', ')}.`);
  if ('action' in message) return checkAction(message.action);
  return checkError(message.error);
}

function checkAction(action: unknown): ValidationIssue[] {
  // v0.9's action allows further properties: v1.0's extra fields pass it and are checked below.
  const shared = validateClientMessage({ version: 'v0.9', action });
  if (shared.length > 0) return shared;
  const body = action as Record<string, unknown>;
  if (body.userMessage !== undefined && typeof body.userMessage !== 'string')
    return issue('/action/userMessage', 'Expected a string.', 'type');
  if (body.metadata === undefined) return [];
  if (!isRecord(body.metadata)) return issue('/action/metadata', 'Expected an object.', 'type');
  for (const key of Object.keys(body.metadata))
    if (key !== 'extensions')
      return issue(`/action/metadata/${key}`, `Unknown property "${key}".`, 'additionalProperties');
  const extensions = body.metadata.extensions;
  if (extensions === undefined) return [];
  if (!isRecord(extensions))
    return issue('/action/metadata/extensions', 'Expected an object.', 'type');
  for (const key of Object.keys(extensions))
    if (!EXTENSION_KEY.test(key) || key.startsWith('a2ui_'))
      return issue(
        `/action/metadata/extensions/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`,
        `Extension keys are identifiers (UAX #31) not starting with "a2ui_".`,
        'propertyNames',
      );
  return [];
}

function checkError(error: unknown): ValidationIssue[] {
  if (!isRecord(error)) return issue('/error', 'Expected an object.', 'type');
  for (const key of ['code', 'message'] as const)
    if (typeof error[key] !== 'string')
      return issue(`/error/${key}`, `Missing required property "${key}".`, 'required');
  if (typeof error.surfaceId !== 'string')
    return issue('/error/surfaceId', 'Missing required property "surfaceId".', 'required');
  if (!PATH_ERROR_CODES.has(error.code as string)) return [];
  if (typeof error.path !== 'string')
    return issue('/error/path', 'Missing required property "path".', 'required');
  for (const key of Object.keys(error))
    if (!PATH_ERROR_KEYS.has(key))
      return issue(`/error/${key}`, `Unknown property "${key}".`, 'additionalProperties');
  return [];
}
