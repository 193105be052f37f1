/**
 * The A2UI extension of A2A (`a2a-mcp-lavs.md` §2; A2UI v0.9 `a2ui_extension_specification.md`):
 * its URI, the MIME types of A2UI data parts, and the metadata keys A2UI reads and writes, in one
 * place. Everything here is shared by the server binding and the client transport.
 */

/** URI of the A2UI v0.9 extension, as agents declare it in `capabilities.extensions`. */
export const A2UI_EXTENSION_URI = 'https://a2ui.org/a2a-extension/a2ui/v0.9';

/** Prefix of every A2UI extension URI (`/v0.8`, `/v0.9`, `/v0.9.1`, `/v0.10`, `/v1.0`). */
export const A2UI_EXTENSION_URI_PREFIX = 'https://a2ui.org/a2a-extension/a2ui/';

/**
 * The MIME type this package emits on A2UI data parts (`metadata.mimeType`, and `mediaType` on
 * A2A v1.0): the `+json` structured-syntax spelling of the A2UI specification from v0.9.1 on, of
 * its A2A and MCP guides and of `docs/wire-formats.md` (core's `A2UI_MIME_TYPE` in the versions
 * layer is the same string).
 */
export const A2UI_MIME_TYPE = 'application/a2ui+json';

/**
 * The older spelling (the A2UI v0.9 extension text, the official Python SDK for v0.9, and this
 * package before), accepted everywhere on input.
 */
export const A2UI_MIME_TYPE_ALIAS = 'application/json+a2ui';

/** Both MIME types an A2UI data part may carry; either is accepted on input. */
export const A2UI_MIME_TYPES: readonly string[] = [A2UI_MIME_TYPE, A2UI_MIME_TYPE_ALIAS];

/**
 * Metadata keys of A2UI over A2A. `a2uiClientCapabilities` and `a2uiClientDataModel` are the
 * spec's (§4); the others are this package's, documented in `docs/wire-formats.md` ("A2A"), and
 * ignored by peers that do not know them.
 */
export const A2UI_METADATA = {
  /** Message (or request) metadata: the client's capabilities (`client_capabilities.json`). */
  clientCapabilities: 'a2uiClientCapabilities',
  /** Message (or request) metadata: the data model of surfaces created with `sendDataModel`. */
  clientDataModel: 'a2uiClientDataModel',
  /** Data part metadata: the MIME type (`application/a2ui+json`). */
  mimeType: 'mimeType',
  /**
   * Data part metadata: the sequence number of the A2UI message in its session (1-based, one per
   * message), so a client that reads a task twice (a resubscribe, a task's history) applies each
   * message once.
   */
  seq: 'a2uiSeq',
  /**
   * Status metadata: the A2UI session of the context ended, with its `DisconnectReason`
   * (`server-closed`: the agent closed it; `client-closed`; `grace-expired`; `reset`).
   */
  sessionClosed: 'a2uiSessionClosed',
  /**
   * Status metadata: the client's session could not be continued (`unknown-connection`,
   * `replay-gap`): its surfaces are gone and it must start a new context.
   */
  reset: 'a2uiReset',
  /** Status metadata: the A2UI error that ended the task (`{code, message, retryAfterMs?}`). */
  error: 'a2uiError',
} as const;

/**
 * Request header of this package's client: the last A2UI `seq` it applied in the context (0 when
 * none), so the server streams from there and nothing is lost or repeated. The SSE name, because
 * the answer is an event stream resumed from that event.
 */
export const LAST_EVENT_ID_HEADER = 'Last-Event-ID';

/** True for either spelling of the A2UI MIME type (case-insensitive, parameters ignored). */
export function isA2uiMimeType(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const type = value.split(';', 1)[0]!.trim().toLowerCase();
  return type === A2UI_MIME_TYPE || type === A2UI_MIME_TYPE_ALIAS;
}

/** True for an A2UI extension URI of any version. */
export function isA2uiExtensionUri(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(A2UI_EXTENSION_URI_PREFIX);
}
