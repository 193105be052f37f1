/**
 * An agent's text output (an LLM's answer with `<a2ui-json>` blocks) as A2A parts, the way the
 * official A2UI A2A handler answers (conformance `extensions/a2a` `handle_rpc`): text between
 * blocks becomes trimmed text parts, each A2UI message of a block a data part; typographic quotes
 * that models write inside a block (“ ” ‘ ’) are read as JSON quotes; and output whose block is
 * not JSON at all goes out whole as one text part, so nothing the model said is lost.
 */
import type { Part } from '@a2a-js/sdk';
import { A2UI_CLOSE_TAG, A2UI_OPEN_TAG, parseA2uiStream } from '@a2ui-ts/core';
import { createA2uiDataPart, createTextPart } from './a2ui-parts.js';

const BLOCK = new RegExp(`${A2UI_OPEN_TAG}[\\s\\S]*?${A2UI_CLOSE_TAG.replace('/', '\\/')}`, 'g');

/** The text with the typographic quotes of every `<a2ui-json>` block made straight. */
function straightenBlockQuotes(text: string): string {
  return text.replace(BLOCK, (block) => block.replace(/[“”]/g, '"').replace(/[‘’]/g, "'"));
}

/**
 * The parts of `text`.
 *
 * @param text - the agent's whole output
 * @returns text parts and A2UI data parts (`application/a2ui+json`), in order
 *
 * @example
 * ```ts
 * await partsOfAgentText('Here:\n<a2ui-json>[{"deleteSurface":{"surfaceId":"s"}}]</a2ui-json>');
 * // [text "Here:", data {deleteSurface: …}]
 * ```
 */
export async function partsOfAgentText(text: string): Promise<Part[]> {
  const parts: Part[] = [];
  async function* whole() {
    yield straightenBlockQuotes(text);
  }
  try {
    // Parts carry what the model wrote; the session host validates what is sent.
    for await (const part of parseA2uiStream(whole(), { validateMessage: false })) {
      if (part.type === 'text') {
        const trimmed = part.text.trim();
        if (trimmed) parts.push(createTextPart(trimmed));
      } else for (const message of part.messages) parts.push(createA2uiDataPart(message));
    }
  } catch {
    return [createTextPart(text)];
  }
  return parts;
}
