/**
 * MIME types and A2A extension URIs of A2UI payloads (v0.9.1 evolution guide; A2A extension docs).
 */

/** The A2UI MIME type from v0.9.1 on: written by every version module. */
export const A2UI_MIME_TYPE = 'application/a2ui+json';

/** The v0.8/v0.9 spelling, still accepted on input (MCP guides and older agents use it). */
export const A2UI_LEGACY_MIME_TYPE = 'application/json+a2ui';

/** Both accepted spellings; the first is the one to write. */
export const A2UI_MIME_TYPES: readonly string[] = Object.freeze([
  A2UI_MIME_TYPE,
  A2UI_LEGACY_MIME_TYPE,
]);

/** Prefix of every A2UI A2A extension URI; the version follows (`…/v0.9.1`). */
export const A2UI_A2A_EXTENSION_URI_PREFIX = 'https://a2ui.org/a2a-extension/a2ui/';

/**
 * True when `mimeType` names an A2UI payload, in either spelling, ignoring case and parameters
 * (`application/a2ui+json; charset=utf-8`).
 *
 * @example
 * ```ts
 * isA2uiMimeType('application/json+a2ui'); // true
 * ```
 */
export function isA2uiMimeType(mimeType: string): boolean {
  const bare = mimeType.split(';', 1)[0]!.trim().toLowerCase();
  return bare === A2UI_MIME_TYPE || bare === A2UI_LEGACY_MIME_TYPE;
}
