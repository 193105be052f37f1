/** Shared shapes of the streaming parser. */

/** A parsed JSON object (an A2UI message, a component, a data-model payload). */
export type JsonObject = Record<string, unknown>;

/**
 * One piece of parsed model output, in stream order: conversational text outside the
 * `<a2ui-json>` blocks, or A2UI messages that are ready to send to a renderer.
 */
export type A2uiStreamPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'messages'; readonly messages: readonly JsonObject[] };
