/**
 * Where A2UI's client metadata sits in an A2A request (`a2a-mcp-lavs.md` §2.4): `a2uiClientCapabilities`
 * and `a2uiClientDataModel` in the message's metadata, or in the request's (a2ui#1412 asks SDKs to
 * read both); the message's wins. The un-versioned v0.8 form of the capabilities
 * (`{supportedCatalogIds, inlineCatalogs}`), which samples still send, is read as the v0.9 one.
 * v1.0's names are accepted beside the older ones: `a2uiRendererCapabilities` (kept as it is; the
 * agent sees it as `connection.rendererCapabilities`) and `a2uiRendererDataModel` (read as
 * `a2uiClientDataModel` with the same `surfaces` when the message has no `a2uiClientDataModel`:
 * the surfaces' data is the same in every version).
 */
import { A2UI_VERSION, isRecord, readRendererDataModel } from '@a2ui-ts/core';
import { A2UI_METADATA } from './a2ui-extension.js';

/** The metadata of one A2A message, split for A2UI. */
export interface ClientMetadataSplit {
  /** `{a2uiClientCapabilities?, a2uiClientDataModel?}` as received (validated by the host), or `undefined`. */
  readonly a2ui: Record<string, unknown> | undefined;
  /** Every other key of the message and request metadata (the message's wins), or `undefined`. */
  readonly extras: Record<string, unknown> | undefined;
}

/** The v0.9 form of capabilities sent in the flat v0.8 form; anything else is returned as is. */
export function normalizeClientCapabilities(value: unknown): unknown {
  if (isRecord(value) && !(A2UI_VERSION in value) && Array.isArray(value.supportedCatalogIds))
    return { [A2UI_VERSION]: value };
  return value;
}

/**
 * Splits request and message metadata into A2UI's keys and the rest.
 *
 * @param requestMetadata - `SendMessageRequest.metadata`
 * @param messageMetadata - `Message.metadata` (wins over the request's)
 *
 * @example
 * ```ts
 * const { a2ui, extras } = splitClientMetadata(request.metadata, request.message?.metadata);
 * await host.receive(id, { principal, message, metadata: a2ui, bytes });
 * ```
 */
export function splitClientMetadata(
  requestMetadata: unknown,
  messageMetadata: unknown,
): ClientMetadataSplit {
  const merged: Record<string, unknown> = {
    ...(isRecord(requestMetadata) ? requestMetadata : {}),
    ...(isRecord(messageMetadata) ? messageMetadata : {}),
  };
  const a2ui: Record<string, unknown> = {};
  const extras: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(merged)) {
    if (key === A2UI_METADATA.clientCapabilities) a2ui[key] = normalizeClientCapabilities(value);
    else if (key === A2UI_METADATA.clientDataModel || key === A2UI_METADATA.rendererCapabilities)
      a2ui[key] = value;
    else if (key !== A2UI_METADATA.rendererDataModel) extras[key] = value;
  }
  // Core's one rule for either name; a v1.0 data model that is not one is left to the host's check.
  const rendererDataModel = merged[A2UI_METADATA.rendererDataModel];
  if (rendererDataModel !== undefined && a2ui[A2UI_METADATA.clientDataModel] === undefined)
    a2ui[A2UI_METADATA.clientDataModel] =
      readRendererDataModel({ [A2UI_METADATA.rendererDataModel]: rendererDataModel }) ??
      rendererDataModel;
  return {
    a2ui: Object.keys(a2ui).length > 0 ? a2ui : undefined,
    extras: Object.keys(extras).length > 0 ? extras : undefined,
  };
}
