/**
 * `@a2ui-ts/core/testing/node`: test utilities that need Node (`node:net`): the TCP fault proxy
 * and `eventually`; and, for scripts that must not load vitest (benchmarks), the Markdown section
 * helpers. Runtime-neutral utilities are in `@a2ui-ts/core/testing`.
 *
 * @module
 */
export {
  markdownSection,
  markedCodeBlocks,
  replaceMarkdownSection,
} from '../markdown-sections.js';
export { eventually } from './eventually.js';
export type { TcpProxy } from './tcp-proxy.js';
export { createTcpProxy } from './tcp-proxy.js';
