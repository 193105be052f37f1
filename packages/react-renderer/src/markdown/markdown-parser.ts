/**
 * `marked`, the markdown lexer, loads on first need: a page whose Texts are all plain labels
 * never downloads it. A Text that needs it before it has loaded holds its place (see
 * `markdownContent`) and renders its markdown once it has. In Node, importing
 * `@a2ui-ts/react-renderer` hands it over statically (`markdown-parser-provided.ts`), so server
 * rendering and tests never wait.
 */
import { LazyModule } from '@a2ui-ts/core';
import type * as Marked from 'marked';
import { useEffect, useState } from 'react';

/** The `marked` module, imported on first need (a chunk of its own where the bundler splits). */
export const markdownParserModule: LazyModule<typeof Marked> = /* @__PURE__ */ new LazyModule(
  'markdown parser (marked)',
  () => import('marked'),
);

/**
 * Loads the markdown parser now, so that no Text holds its place while it loads (for a page that
 * knows its first surface carries markdown, or when idle). Node does not need it.
 *
 * @returns Resolves once it has loaded.
 * @throws A2uiError `MODULE_NOT_LOADED` (rejects) when its chunk cannot be fetched
 *
 * @example
 * ```ts
 * await loadMarkdownParser();
 * ```
 */
export function loadMarkdownParser(): Promise<void> {
  return markdownParserModule.load();
}

/** Where the parser stands for a component that needs it. */
export type MarkdownParserState = 'ready' | 'loading' | 'failed';

/**
 * The parser's state for a component, re-rendering it once the load settles. `needed` false
 * (plain or literal text) loads nothing. A failed load reports `failed` (the text is then shown
 * literally); the next component that needs the parser tries again.
 */
export function useMarkdownParser(needed: boolean): MarkdownParserState {
  const ready = markdownParserModule.loaded;
  const [failed, setFailed] = useState(false);
  const [, setLoads] = useState(0);
  // Started while rendering, not after the commit: the fetch begins as early as it can.
  if (needed && !ready && !failed) markdownParserModule.load().catch(() => {});
  useEffect(() => {
    if (!needed || markdownParserModule.loaded) return;
    let live = true;
    markdownParserModule.load().then(
      () => live && setLoads((count) => count + 1),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [needed]);
  if (ready) return 'ready';
  return failed ? 'failed' : 'loading';
}
