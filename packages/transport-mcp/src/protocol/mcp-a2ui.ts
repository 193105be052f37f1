/**
 * A2UI over MCP as the official guide ("A2UI over Model Context Protocol", `v1_0/guides/
 * a2ui_over_mcp.md`) writes it: A2UI travels as an `EmbeddedResource` with the
 * `application/a2ui+json` MIME type beside a `TextContent` fallback; the client declares its
 * catalogs in `initialize` (`capabilities.a2ui.clientCapabilities`) or per call
 * (`_meta.a2ui.clientCapabilities`); user actions and renderer errors come back as the
 * `a2ui_action` / `a2ui_error` tools. Shared by the server binding and the client connector.
 */
import { A2UI_MIME_TYPE, isA2uiMimeType } from '@a2ui-ts/core';

/** The guide's tool that carries a user action: arguments `{name, context}` (§ Handling User Actions). */
export const A2UI_ACTION_TOOL = 'a2ui_action';
/** The guide's tool that carries a renderer error: arguments `{code, message, surfaceId}` (§ Error Handling). */
export const A2UI_ERROR_TOOL = 'a2ui_error';
/**
 * Our tool that opens the agent's UI: its result carries what the agent sent on connect (and
 * everything not yet delivered), so a host has something to call before any action.
 */
export const A2UI_OPEN_TOOL = 'a2ui_open';
/** The MCP Apps extension's capability key (`capabilities.extensions[…].mimeTypes`). */
export const MCP_UI_EXTENSION = 'io.modelcontextprotocol/ui';
/**
 * Our notification of what the agent sent between tool calls (a live update), on the session's
 * standalone stream (Streamable HTTP `GET`): `params._meta.a2ui` as in a progress notification.
 */
export const A2UI_MESSAGES_NOTIFICATION = 'notifications/a2ui/messages';
/** The `_meta` / capabilities key A2UI uses on MCP. */
export const A2UI_META_KEY = 'a2ui';
/**
 * Where the server answers the negotiated A2UI version in `initialize`:
 * `capabilities.experimental.a2ui` (`{version, versions}`). MCP's place for a capability it does
 * not define — the SDK's `Client` keeps it (`getServerCapabilities().experimental`), while it
 * drops an unknown top-level key.
 */
export const A2UI_EXPERIMENTAL_CAPABILITY = 'a2ui';
/** Prefix of the URIs of A2UI resources. */
export const A2UI_URI_SCHEME = 'a2ui://';

export { A2UI_MIME_TYPE };

/** What a client said about A2UI, in `initialize` or one call's `_meta.a2ui`. */
export interface McpA2uiDeclaration {
  /** `clientCapabilities`: catalogs keyed by A2UI version (`{"v0.9": {supportedCatalogIds}}`). */
  readonly clientCapabilities?: Record<string, unknown>;
  /** `clientDataModel`: the `a2uiClientDataModel` of the guide's stateless variant. */
  readonly clientDataModel?: unknown;
  /** `requestId`: the client message's own id; the server delivers each id once. */
  readonly requestId?: string;
}

/** An MCP `EmbeddedResource` content block carrying A2UI. */
export interface A2uiEmbeddedResource {
  type: 'resource';
  resource: { uri: string; mimeType: string; text: string };
  annotations?: { audience: ('user' | 'assistant')[] };
}

/** An MCP `TextContent` block. */
export interface McpTextContent {
  type: 'text';
  text: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads the A2UI declaration of an `initialize` capabilities object or a call's `_meta`: the
 * `a2ui` key, and the MCP Apps extension's `mimeTypes` when they list the A2UI MIME type (which
 * declares A2UI without catalogs). `undefined` when the client declared no A2UI.
 */
export function readA2uiDeclaration(holder: unknown): McpA2uiDeclaration | undefined {
  if (!isRecord(holder)) return undefined;
  const own = holder[A2UI_META_KEY];
  if (isRecord(own)) {
    const { clientCapabilities, clientDataModel, requestId } = own;
    return {
      ...(isRecord(clientCapabilities) ? { clientCapabilities } : {}),
      ...(clientDataModel === undefined ? {} : { clientDataModel }),
      ...(typeof requestId === 'string' ? { requestId } : {}),
    };
  }
  const extensions = holder.extensions;
  const ui = isRecord(extensions) ? extensions[MCP_UI_EXTENSION] : undefined;
  const mimeTypes = isRecord(ui) ? ui.mimeTypes : undefined;
  if (Array.isArray(mimeTypes) && mimeTypes.some((t) => typeof t === 'string' && isA2uiMimeType(t)))
    return {};
  return undefined;
}

/**
 * The A2UI versions a declaration offers: the keys of its `clientCapabilities` (the guide's map
 * keyed by version, `{"v0.9": {…}, "v1.0": {…}}`), in the client's order. `undefined` when it
 * names none — a client that declared no catalogs (or only the MCP Apps MIME type) is served as
 * before negotiation existed (v0.9).
 */
export function offeredVersionsOf(
  declaration: McpA2uiDeclaration | undefined,
): readonly string[] | undefined {
  const keys = Object.keys(declaration?.clientCapabilities ?? {});
  return keys.length > 0 ? keys : undefined;
}

/**
 * The metadata core's session host takes beside a client message (§4), from a declaration:
 * `v1.0` catalogs go to `a2uiRendererCapabilities`, every other version to
 * `a2uiClientCapabilities`. `undefined` when the declaration carries neither.
 */
export function toClientMetadata(
  declaration: McpA2uiDeclaration | undefined,
): Record<string, unknown> | undefined {
  if (!declaration) return undefined;
  const metadata: Record<string, unknown> = {};
  const { clientCapabilities, clientDataModel } = declaration;
  if (clientCapabilities) {
    const { 'v1.0': renderer, ...rest } = clientCapabilities;
    if (Object.keys(rest).length > 0) metadata.a2uiClientCapabilities = rest;
    if (renderer !== undefined) metadata.a2uiRendererCapabilities = { 'v1.0': renderer };
  }
  if (clientDataModel !== undefined) metadata.a2uiClientDataModel = clientDataModel;
  return Object.keys(metadata).length > 0 ? metadata : undefined;
}

/**
 * The URI of a batch's resource: `a2ui://<surfaceId>` of its first message that names a surface
 * (as the guide's `a2ui://recipe-card`), `a2ui://messages` otherwise.
 */
export function a2uiResourceUri(messages: readonly unknown[]): string {
  for (const message of messages) {
    if (!isRecord(message)) continue;
    for (const value of Object.values(message)) {
      if (isRecord(value) && typeof value.surfaceId === 'string' && value.surfaceId !== '')
        return `${A2UI_URI_SCHEME}${encodeURIComponent(value.surfaceId)}`;
    }
  }
  return `${A2UI_URI_SCHEME}messages`;
}

/**
 * The `EmbeddedResource` of a batch: the messages as one JSON array (the guide's payload), shown
 * to the user and kept out of the model's context (`audience: ["user"]`).
 *
 * @param messagesJson - the messages' JSON texts, in order (joined, never parsed again)
 * @param messages - the same messages as objects (for the URI)
 */
export function toA2uiResource(
  messagesJson: readonly string[],
  messages: readonly unknown[],
): A2uiEmbeddedResource {
  return {
    type: 'resource',
    resource: {
      uri: a2uiResourceUri(messages),
      mimeType: A2UI_MIME_TYPE,
      text: `[${messagesJson.join(',')}]`,
    },
    annotations: { audience: ['user'] },
  };
}

/**
 * A plain-text account of a batch for hosts that render no A2UI (the guide's "Fallback Text"):
 * which surfaces changed and the literal texts of their `Text` components, so a model or a user
 * of a text-only host still reads what the UI says.
 */
export function describeA2uiMessages(messages: readonly unknown[]): string {
  if (messages.length === 0) return 'No new UI.';
  const surfaces = new Set<string>();
  const deleted = new Set<string>();
  const texts: string[] = [];
  for (const message of messages) {
    if (!isRecord(message)) continue;
    for (const [kind, body] of Object.entries(message)) {
      if (!isRecord(body) || typeof body.surfaceId !== 'string') continue;
      if (kind === 'deleteSurface') deleted.add(body.surfaceId);
      else surfaces.add(body.surfaceId);
      if (!Array.isArray(body.components)) continue;
      for (const component of body.components)
        if (isRecord(component) && typeof component.text === 'string') texts.push(component.text);
    }
  }
  const lines: string[] = [];
  if (surfaces.size > 0) lines.push(`Updated UI: ${[...surfaces].join(', ')}.`);
  if (deleted.size > 0) lines.push(`Closed UI: ${[...deleted].join(', ')}.`);
  lines.push(...texts);
  return lines.length > 0 ? lines.join('\n') : 'The UI changed.';
}

/** One A2UI payload found in MCP content: its resource URI and its JSON text. */
export interface FoundA2uiText {
  readonly uri: string;
  /** The payload's text (a base64 `blob` decoded as UTF-8); `undefined` when it has none. */
  readonly text: string | undefined;
}

/**
 * Finds A2UI in MCP content blocks (a `CallToolResult.content`) or resource contents (a
 * `ReadResourceResult.contents`): every embedded resource or resource content with an A2UI MIME
 * type (either spelling), in order. Blocks of other types are skipped.
 */
export function findA2uiTexts(blocks: readonly unknown[]): FoundA2uiText[] {
  const found: FoundA2uiText[] = [];
  for (const block of blocks) {
    if (!isRecord(block)) continue;
    const contents = block.type === 'resource' && isRecord(block.resource) ? block.resource : block;
    const mimeType = contents.mimeType;
    if (typeof mimeType !== 'string' || !isA2uiMimeType(mimeType)) continue;
    const uri = typeof contents.uri === 'string' ? contents.uri : '';
    const text =
      typeof contents.text === 'string'
        ? contents.text
        : typeof contents.blob === 'string'
          ? decodeBase64(contents.blob)
          : undefined;
    found.push({ uri, text });
  }
  return found;
}

/** One A2UI payload parsed, or why it could not be. */
export type FoundA2uiPayload =
  | { ok: true; uri: string; payload: unknown }
  | { ok: false; uri: string; error: string };

/**
 * {@link findA2uiTexts} with each payload parsed as JSON (one message, an array, or
 * `{messages}`, as the client's processor takes them).
 */
export function findA2uiPayloads(blocks: readonly unknown[]): FoundA2uiPayload[] {
  return findA2uiTexts(blocks).map(({ uri, text }): FoundA2uiPayload => {
    if (text === undefined)
      return { ok: false, uri, error: `The A2UI resource ${uri} has no text.` };
    try {
      return { ok: true, uri, payload: JSON.parse(text) };
    } catch {
      return { ok: false, uri, error: `The A2UI resource ${uri} is not valid JSON.` };
    }
  });
}

/** UTF-8 text of base64 (browsers and Node alike). */
function decodeBase64(blob: string): string | undefined {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(blob), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
