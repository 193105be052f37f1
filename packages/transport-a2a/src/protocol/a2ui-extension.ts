/**
 * The A2UI extension of A2A (`a2a-mcp-lavs.md` §2; A2UI v0.9 `a2ui_extension_specification.md`):
 * its URI, the MIME types of A2UI data parts, and the metadata keys A2UI reads and writes, in one
 * place. Everything here is shared by the server binding and the client transport.
 */

import { parseWireVersion } from '@a2ui-ts/core';

/**
 * URI of the A2UI v0.9 extension, as agents declare it in `capabilities.extensions`: what clients
 * before version negotiation request, and what a server activates for a client that requests no
 * A2UI extension but sends capabilities. See {@link a2uiExtensionUriOf} for the other versions.
 */
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
  /** v1.0's name of the capabilities (`{"v1.0": {supportedCatalogIds}}`), read beside the older one. */
  rendererCapabilities: 'a2uiRendererCapabilities',
  /** v1.0's name of the data model, read beside the older one. */
  rendererDataModel: 'a2uiRendererDataModel',
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

/**
 * The A2UI extension URI of one A2UI version: `https://a2ui.org/a2a-extension/a2ui/v1.0` for
 * `v1.0`. A client offers versions by requesting these URIs (the `A2A-Extensions` /
 * `X-A2A-Extensions` header, `message.extensions`); the server activates the one it speaks.
 *
 * @example
 * ```ts
 * a2uiExtensionUriOf('v0.9.1'); // 'https://a2ui.org/a2a-extension/a2ui/v0.9.1'
 * ```
 */
export function a2uiExtensionUriOf(version: string): string {
  return `${A2UI_EXTENSION_URI_PREFIX}${version}`;
}

/**
 * The A2UI version of an extension URI (`…/a2ui/v1.0` → `v1.0`), or `undefined` for a URI that is
 * not an A2UI extension. The version is parsed strictly.
 *
 * @throws A2uiError `VALIDATION_FAILED` for an A2UI extension URI whose version is malformed
 *   (`…/a2ui/v1`)
 */
export function a2uiVersionOfExtensionUri(uri: string): string | undefined {
  if (!isA2uiExtensionUri(uri)) return undefined;
  const version = uri.slice(A2UI_EXTENSION_URI_PREFIX.length);
  parseWireVersion(version);
  return version;
}

/**
 * The A2UI versions a request offers by the extension URIs it requests (header and
 * `message.extensions`, in that order, each version once), or `undefined` when it requests no A2UI
 * extension (a client older than negotiation, or one that only sends capabilities).
 *
 * @throws A2uiError `VALIDATION_FAILED` as {@link a2uiVersionOfExtensionUri}
 */
export function offeredVersionsOfExtensions(
  ...uriLists: readonly (readonly string[] | undefined)[]
): string[] | undefined {
  const offered = new Set<string>();
  for (const list of uriLists)
    for (const uri of list ?? []) {
      const version = a2uiVersionOfExtensionUri(uri);
      if (version !== undefined) offered.add(version);
    }
  return offered.size > 0 ? [...offered] : undefined;
}

/** An `AgentExtension` of the A2UI extension as the official SDKs build it. */
export interface A2uiAgentExtension {
  readonly uri: string;
  /** `null` when neither option is set (the official `get_a2ui_agent_extension`). */
  readonly params: { supportedCatalogIds?: string[]; acceptsInlineCatalogs?: true } | null;
}

/**
 * The A2UI extension of one version as the official SDKs declare it (conformance
 * `extensions/a2a` `get_extension`): `params` holds `supportedCatalogIds` and
 * `acceptsInlineCatalogs: true` only when given.
 *
 * @param version - `"v0.9"` or the bare `"0.9"` of the official SDKs
 */
export function a2uiAgentExtension(
  version: string,
  options: { supportedCatalogIds?: readonly string[]; acceptsInlineCatalogs?: boolean } = {},
): A2uiAgentExtension {
  const token = version.startsWith('v') ? version : `v${version}`;
  parseWireVersion(token);
  const params: { supportedCatalogIds?: string[]; acceptsInlineCatalogs?: true } = {};
  if (options.acceptsInlineCatalogs) params.acceptsInlineCatalogs = true;
  if (options.supportedCatalogIds) params.supportedCatalogIds = [...options.supportedCatalogIds];
  return { uri: a2uiExtensionUriOf(token), params: Object.keys(params).length > 0 ? params : null };
}
