/**
 * Agent side: parsing LLM output that mixes text with `<a2ui-json>` blocks of A2UI messages.
 */

export {
  type A2uiStreamParser,
  type A2uiStreamParserOptions,
  createA2uiStreamParser,
  DEFAULT_MAX_BLOCK_BYTES,
} from './a2ui-stream-parser.js';
export { A2UI_CLOSE_TAG, A2UI_OPEN_TAG } from './a2ui-tags.js';
export {
  createA2uiStreamTransform,
  type ParseA2uiStreamOptions,
  parseA2uiStream,
} from './parse-a2ui-stream.js';
export {
  DEFAULT_PARTIAL_STRING_EAGER_CHARS,
  DEFAULT_PARTIAL_STRING_MIN_GROWTH,
} from './partial-string-gate.js';
export { DEFAULT_CUTTABLE_KEYS } from './repair-partial-json.js';
export type { A2uiStreamVersion } from './stream-dialect.js';
export type { A2uiStreamPart } from './stream-types.js';
export type { A2uiStreamValidationContext, A2uiStreamValidator } from './stream-validator.js';
