/**
 * Validation of what a client sends a server (spec §3 client messages, §4 metadata), with the
 * bounds every binding applies: the size of a message with its metadata, the nesting and size of
 * the metadata, and the length of request ids. Issues carry JSON Pointers relative to the
 * request `{ <kind>: …, metadata: … }`, so a binding only prefixes its own envelope (`/params`).
 */
import type { ClientMessage, ClientMessageMetadata } from '../protocol/messages.js';
import {
  RENDERER_DATA_MODEL_VERSION,
  RENDERER_METADATA_KEYS,
} from '../protocol/renderer-metadata.js';
import { checkFunctionCallMessage, getFunctionCallKind } from '../rpc/function-call-messages.js';
import { DEFAULT_MAX_DEPTH, findDepthViolation } from '../validation/find-depth-violation.js';
import {
  validateClientCapabilities,
  validateClientDataModel,
  validateClientMessage,
} from '../validation/validate-messages.js';
import type { ValidationIssue } from '../validation/validation-issue.js';
import { checkV10ActionOrError, isV10ActionOrError } from '../versions/v1-0-renderer-messages.js';

/** Bounds on one inbound client message. Sizes in bytes. */
export interface InboundLimits {
  /** Largest client message with its metadata, as received (the binding measures it). @default 1048576 */
  maxClientMessageBytes?: number;
  /**
   * Deepest nesting of the metadata object (arrays and objects). Above the data model's own depth
   * limit (64) so that any data model the client may hold still fits in `a2uiClientDataModel`.
   * @default 80
   */
  maxMetadataDepth?: number;
  /** Largest metadata object, as JSON text. @default 1048576 */
  maxMetadataBytes?: number;
  /** Longest request id (idempotency key), in characters. @default 256 */
  maxRequestIdLength?: number;
  /**
   * Deepest nesting of a whole request body or frame as parsed (arrays and objects: a JSON-RPC
   * envelope or batch, a `RunAgentInput`, an A2A message, a REST body, a WebSocket frame), checked
   * before anything else walks it, so that no recursive serialiser or schema library meets a
   * 100,000-level value. Keep it above `maxMetadataDepth` plus the envelope's own few levels.
   * @default the larger of 128 and `maxMetadataDepth` + 16
   */
  maxRequestDepth?: number;
}

/** Defaults of {@link InboundLimits}. */
export const INBOUND_DEFAULTS = {
  maxClientMessageBytes: 1_048_576,
  maxMetadataDepth: DEFAULT_MAX_DEPTH + 16,
  maxMetadataBytes: 1_048_576,
  maxRequestIdLength: 256,
  maxRequestDepth: 128,
} as const;

/** Result of {@link checkClientMessage}. */
export type InboundCheck =
  | {
      readonly ok: true;
      readonly message: ClientMessage;
      readonly metadata: ClientMessageMetadata | undefined;
    }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Validates the inner object of a client message (`kind` is `action` or `error`, `body` the v0.9
 * object under it) and its metadata. Returns the message as the agent receives it, or the issues,
 * pointing at `/<kind>/…` or `/metadata/…`.
 *
 * @param kind - `'action'` or `'error'`
 * @param body - the v0.9 inner object, as parsed from the wire
 * @param metadata - the metadata beside it, as parsed (`undefined` when absent)
 * @param limits - see {@link InboundLimits}; `bytes` is checked by the caller
 * @param receivedBytes - size of the whole request as received; when it is within
 *   `maxMetadataBytes`, the metadata cannot exceed it and is not measured again
 *
 * @example
 * ```ts
 * const check = checkClientMessage('action', params.action, params.metadata);
 * if (!check.ok) return invalidParams(check.issues);
 * ```
 */
export function checkClientMessage(
  kind: 'action' | 'error',
  body: unknown,
  metadata: unknown,
  limits: InboundLimits = {},
  receivedBytes?: number,
): InboundCheck {
  const message = { version: 'v0.9', [kind]: body };
  const issues = validateClientMessage(message);
  if (issues.length > 0) {
    return {
      ok: false,
      issues: issues.map((issue) => ({
        ...issue,
        path: issue.path.startsWith(`/${kind}`) ? issue.path : `/${kind}`,
      })),
    };
  }
  const checked = checkMetadata(metadata, limits, receivedBytes);
  if (!checked.ok) return checked;
  return { ok: true, message: message as unknown as ClientMessage, metadata: checked.metadata };
}

/**
 * Validates one whole inbound client message, whatever its version: a v1.0 function-call message
 * (`callAgentFunction`, `rendererFunctionResponse`, or the `error` form of a refused call) by its
 * own shape check, a v1.0 `action` or `error` by v1.0's (`renderer_to_agent.json`), anything
 * else as a v0.9 client message (`action`, `error`). Whether the connection negotiated the
 * message's version is the session's check (`ConnectionSession.receive`). The one rule every
 * binding and the session host apply, so a bad message gets the same issues everywhere.
 *
 * @param message - The message as parsed from the wire, with its `version`.
 * @returns Issues with JSON Pointers into the message (empty when valid).
 *
 * @example
 * ```ts
 * checkInboundMessage({ version: 'v1.0', callAgentFunction: { surfaceId: 's', callFunction: { call: 'f' } } });
 * // [{ path: '/callAgentFunction/functionCallId', message: 'Missing required property "functionCallId".' }]
 * ```
 */
export function checkInboundMessage(message: unknown): ValidationIssue[] {
  if (getFunctionCallKind(message)) return checkFunctionCallMessage(message);
  if (isV10ActionOrError(message)) return checkV10ActionOrError(message as Record<string, unknown>);
  return validateClientMessage(message);
}

/**
 * v1.0's `renderer_data_model.json`: v0.9's `client_data_model.json` but for `version`, so the
 * v0.9 validator checks the rest (the same depth bound on each surface's data).
 */
function validateRendererDataModel(
  value: unknown,
  options: { maxDepth: number },
): ValidationIssue[] {
  if (isRecord(value) && value.version !== RENDERER_DATA_MODEL_VERSION)
    return [
      {
        path: '/version',
        keyword: 'const',
        message: `The renderer data model's version must be "${RENDERER_DATA_MODEL_VERSION}".`,
      },
    ];
  return validateClientDataModel(isRecord(value) ? { ...value, version: 'v0.9' } : value, options);
}

/**
 * Validates client metadata (spec §4): an object, within `maxMetadataDepth` and
 * `maxMetadataBytes`, whose `a2uiClientCapabilities` and `a2uiClientDataModel` match their
 * schemas, as does v1.0's `a2uiRendererDataModel` (`renderer_data_model.json`: the same shape
 * with `version: "v1.0"`). Issues point at `/metadata/…`.
 */
export function checkMetadata(
  metadata: unknown,
  limits: InboundLimits = {},
  receivedBytes?: number,
):
  | { readonly ok: true; readonly metadata: ClientMessageMetadata | undefined }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] } {
  if (metadata === undefined || metadata === null) return { ok: true, metadata: undefined };
  const fail = (issue: ValidationIssue) => ({ ok: false as const, issues: [issue] });
  if (!isRecord(metadata))
    return fail({ path: '/metadata', keyword: 'type', message: 'Metadata must be an object.' });
  const maxDepth = limits.maxMetadataDepth ?? INBOUND_DEFAULTS.maxMetadataDepth;
  const tooDeep = findDepthViolation(metadata, maxDepth);
  if (tooDeep) return fail({ ...tooDeep, path: `/metadata${tooDeep.path}` });
  const maxBytes = limits.maxMetadataBytes ?? INBOUND_DEFAULTS.maxMetadataBytes;
  const size =
    receivedBytes !== undefined && receivedBytes <= maxBytes ? 0 : JSON.stringify(metadata).length;
  if (size > maxBytes) {
    return fail({
      path: '/metadata',
      keyword: 'maxMetadataBytes',
      message: `Metadata is ${size} bytes of JSON; at most ${maxBytes} are accepted.`,
    });
  }
  const checks: Array<
    [string, (value: unknown, options: { maxDepth: number }) => ValidationIssue[]]
  > = [
    ['a2uiClientCapabilities', validateClientCapabilities],
    ['a2uiClientDataModel', validateClientDataModel],
    [RENDERER_METADATA_KEYS.dataModel.v1, validateRendererDataModel],
  ];
  for (const [key, validate] of checks) {
    if (metadata[key] === undefined) continue;
    const found = validate(metadata[key], { maxDepth });
    if (found.length > 0) {
      return {
        ok: false,
        issues: found.map((issue) => ({ ...issue, path: `/metadata/${key}${issue.path}` })),
      };
    }
  }
  return { ok: true, metadata: metadata as ClientMessageMetadata };
}

/**
 * Finds the first array or object of a parsed request nested deeper than `maxRequestDepth`
 * (see {@link InboundLimits.maxRequestDepth}), without recursion. A binding runs it on the body or
 * frame right after `JSON.parse` and refuses the request with its validation error (HTTP 400
 * `VALIDATION_FAILED`, JSON-RPC −32600 / −32602, an `error` frame) when it finds one.
 *
 * @param payload - the parsed body or frame
 * @param limits - `maxRequestDepth` (or the default derived from `maxMetadataDepth`)
 * @returns a `maxDepth` issue whose `path` is the JSON Pointer (into the request) of the first
 *   too-deep container, or `undefined`
 *
 * @example
 * ```ts
 * const tooDeep = checkRequestDepth(JSON.parse(text), options);
 * if (tooDeep) return c.json({ error: { code: 'VALIDATION_FAILED', message: tooDeep.message, path: tooDeep.path } }, 400);
 * ```
 */
export function checkRequestDepth(
  payload: unknown,
  limits: InboundLimits = {},
): ValidationIssue | undefined {
  const maxDepth =
    limits.maxRequestDepth ??
    Math.max(
      INBOUND_DEFAULTS.maxRequestDepth,
      (limits.maxMetadataDepth ?? INBOUND_DEFAULTS.maxMetadataDepth) + 16,
    );
  const issue = findDepthViolation(payload, maxDepth);
  return (
    issue && {
      ...issue,
      message: `The request is nested more than ${maxDepth} levels deep (arrays and objects; maxRequestDepth).`,
    }
  );
}
