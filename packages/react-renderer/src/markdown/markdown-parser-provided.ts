/**
 * Hands `marked` over statically. Evaluating this module (Node does when
 * `@a2ui-ts/react-renderer` is imported) makes markdown render synchronously from the start; a
 * bundler drops it from a page that uses none of its exports, and the page imports `marked` on
 * first need instead (`markdown-parser.ts`).
 */
import * as marked from 'marked';
import { markdownParserModule } from './markdown-parser.js';

/** True once `marked` has been handed over statically (see the module comment). */
export const markdownParserProvided: boolean = /* @__PURE__ */ (() => {
  markdownParserModule.provide(marked);
  return true;
})();
