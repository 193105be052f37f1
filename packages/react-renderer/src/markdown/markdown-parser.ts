/**
 * `marked`, the markdown lexer, loads on first need: a page whose Texts are all plain labels
 * never downloads it. A Text that needs it before it has loaded holds its place (see
 * `markdownContent`) and renders its markdown once it has. In Node, importing
 * `@a2ui-ts/react-renderer` hands it over statically (`markdown-parser-provided.ts`), so server
 * rendering and tests never wait.
 */
import { LazyModule } from '@a2ui-ts/core';
import type * as Marked from 'marked';
import { useSyncExternalStore } from 'react';

/** The `marked` module, imported on first need (a chunk of its own where the bundler splits). */
export const markdownParserModule: LazyModule<typeof Marked> = /* @__PURE__ */ new LazyModule(
  'markdown parser (marked)',
  () => import('marked'),
);

/** Where the parser stands for a component that needs it. */
export type MarkdownParserState = 'ready' | 'loading' | 'failed';

/** The last load failed (until the next one starts). */
let failed = false;
/** A load is under way. */
let loading = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function snapshot(): MarkdownParserState {
  if (markdownParserModule.loaded) return 'ready';
  return failed ? 'failed' : 'loading';
}

/**
 * Loads the markdown parser now, so that no Text holds its place while it loads (for a page that
 * knows its first surface carries markdown, or when idle); after a failed load, tries again.
 * Node does not need it.
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
  const load = markdownParserModule.load();
  if (!markdownParserModule.loaded && !loading) {
    loading = true;
    failed = false;
    load.then(
      () => settle(false),
      () => settle(true),
    );
  }
  return load;
}

function settle(failure: boolean): void {
  loading = false;
  failed = failure;
  for (const listener of [...listeners]) listener();
}

/**
 * The parser's state, re-rendering the component once a load settles (a store read with
 * `useSyncExternalStore`, so a load that settles between render and commit is not missed).
 * `needed` (markdown to render) starts the load if none is under way; a failed load reports
 * `failed` (the text is then shown literally) until `loadMarkdownParser()` tries again.
 */
export function useMarkdownParser(needed: boolean): MarkdownParserState {
  const state = useSyncExternalStore(subscribe, snapshot, snapshot);
  // Started while rendering, not after the commit: the fetch begins as early as it can.
  if (needed && state === 'loading' && !loading) loadMarkdownParser().catch(() => {});
  return state;
}
