/**
 * The one rule for the shape of client messages on a link (issue 20): which A2UI version an
 * `action` or `error` is written in, and how bindings that name the message kind in their route
 * (SSE + JSON-RPC methods, REST paths) split a message into kind, body and version and join it
 * again. Every binding and `A2uiClient` use these, so no two links can write or read a message
 * in different shapes.
 */
import { isRecord } from '../protocol/guards.js';
import type { ProtocolVersion } from '../versions/protocol-version.js';
import { v09 } from '../versions/v0-9.js';
import { v10 } from '../versions/v1-0.js';
import { V1_0_ENVELOPE_VERSIONS } from '../versions/v1-0-spelling.js';
import { type ClientTransport, DEFAULT_CLIENT_MESSAGE_VERSIONS } from './client-transport.js';

/**
 * The version a client message is written in on `transport`:
 * - a link that negotiated v1.0 (`transport.a2uiVersion`) writes v1.0's shape
 *   (`renderer_to_agent.json`: `"version": "v1.0"`, `action.userMessage`, an `error` naming
 *   exactly one of `surfaceId` / `functionCallId`), whatever version the surface was created in;
 * - a link that negotiated an older version writes v0.9's shape: v0.9.1 and v0.8 servers of
 *   every binding read it, and its fields are theirs;
 * - a link without negotiation writes the surface's version when the link lists it in
 *   `clientMessageVersions`, else v0.9 (what every server accepted before negotiation).
 *
 * @param transport - the link (`undefined`: none yet, v0.9 unless the surface's version is v0.9)
 * @param surfaceVersion - the version the message's surface was created in
 * @returns the version module whose `encodeAction` / `encodeError` write the message
 *
 * @example
 * ```ts
 * const version = clientMessageVersionOf(transport, surface.protocolVersion);
 * transport.send(version.encodeAction(action), metadata);
 * ```
 */
export function clientMessageVersionOf(
  transport: Pick<ClientTransport, 'a2uiVersion' | 'clientMessageVersions'> | undefined,
  surfaceVersion: ProtocolVersion,
): ProtocolVersion {
  const negotiated = transport?.a2uiVersion;
  if (negotiated !== undefined) return isV10(negotiated) ? v10 : v09;
  const carried = transport?.clientMessageVersions ?? DEFAULT_CLIENT_MESSAGE_VERSIONS;
  return carried.includes(surfaceVersion.name) ? surfaceVersion : v09;
}

/** A client message kind a binding names in its route. */
export type ClientMessageKind =
  | 'action'
  | 'error'
  | 'callAgentFunction'
  | 'rendererFunctionResponse';

/** A client message split for a binding whose route names the kind. */
export interface ClientMessageParts {
  readonly kind: ClientMessageKind;
  /** The object under the kind's key. */
  readonly body: unknown;
  /**
   * The envelope `version`, only when it is not the kind's default (v0.9 for `action` and
   * `error`, v1.0 for the function-call messages): so a v0.9 client's bytes never change.
   */
  readonly version?: string;
}

const FUNCTION_CALL_KINDS = new Set<string>(['callAgentFunction', 'rendererFunctionResponse']);

/** The envelope version a route's message has when the request names none. */
export function defaultClientMessageVersion(kind: ClientMessageKind): string {
  return FUNCTION_CALL_KINDS.has(kind) ? V1_0_ENVELOPE_VERSIONS[0]! : 'v0.9';
}

/**
 * Splits a client message for a route that names its kind (`a2ui.action`, `POST /action`, …).
 * An `error` that answers a function call (`{error: {functionCallId, …}}`) keeps its `error` kind
 * and its version.
 *
 * @example
 * ```ts
 * toClientMessageParts({ version: 'v1.0', action }); // { kind: 'action', body: action, version: 'v1.0' }
 * ```
 */
export function toClientMessageParts(message: unknown): ClientMessageParts {
  const record = isRecord(message) ? message : {};
  const kind =
    (['callAgentFunction', 'rendererFunctionResponse', 'action'] as const).find(
      (key) => key in record,
    ) ?? 'error';
  const version = typeof record.version === 'string' ? record.version : undefined;
  const body = record[kind];
  return version === undefined || version === defaultClientMessageVersion(kind)
    ? { kind, body }
    : { kind, body, version };
}

/**
 * Joins what a route carried into the client message the session host checks: `{version,
 * [kind]: body}`, with `version` defaulting to the kind's ({@link defaultClientMessageVersion}).
 * The host then refuses a version the connection did not negotiate.
 */
export function fromClientMessageParts(
  kind: ClientMessageKind,
  body: unknown,
  version: unknown,
): Record<string, unknown> {
  // A version that is not a string is kept, so the message's check names it (`/version`).
  return {
    version: version === undefined ? defaultClientMessageVersion(kind) : version,
    [kind]: body,
  };
}

function isV10(version: string): boolean {
  return V1_0_ENVELOPE_VERSIONS.includes(version);
}
