/** The tags that delimit A2UI JSON in model output (the agent SDKs' direct-JSON format). */

/** Opens a block of A2UI JSON in model output. */
export const A2UI_OPEN_TAG = '<a2ui-json>';
/** Closes a block of A2UI JSON in model output. */
export const A2UI_CLOSE_TAG = '</a2ui-json>';

/**
 * How many characters at the end of `text` could be the start of `tag` and must be held back
 * until the next chunk shows whether they are (`"Talking <a2u"` holds `"<a2u"`).
 */
export function heldTagPrefixLength(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(tag.slice(0, length))) return length;
  }
  return 0;
}
