/**
 * The blocks of a document that tests keep honest (Node only: it reads the file): the code
 * blocks marked `<!-- wire-test: name -->` in one `## ` section of a Markdown page, such as the
 * exchanges of `docs/wire-formats.md` that every binding's wire-format test produces and compares.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownSection, markedCodeBlocks } from '../markdown-sections.js';

/** The marked blocks of one section. */
export interface WireTestBlocks {
  /** The names of the section's blocks, in document order. */
  readonly names: readonly string[];
  /**
   * The text of block `name`, as written (up to its closing fence, final line break included).
   * @throws Error naming the document and the block, when the section has no such block
   */
  block(name: string): string;
}

/**
 * Reads the `wire-test` blocks of the section `## {title}` of the Markdown file `file`.
 *
 * @param file - the document, e.g. `new URL('../../../docs/wire-formats.md', import.meta.url)`
 * @param title - the section's heading without `## `, e.g. `'SSE + JSON-RPC'`
 * @param marker - the comment that marks a block @default 'wire-test'
 * @throws Error naming the document and the section, when it has no such section
 *
 * @example
 * ```ts
 * const wire = readWireTestBlocks(new URL('../../../docs/wire-formats.md', import.meta.url), 'REST');
 * expect(answer).toBe(wire.block('rest-connect-response').trimEnd());
 * ```
 */
export function readWireTestBlocks(file: URL, title: string, marker = 'wire-test'): WireTestBlocks {
  const path = fileURLToPath(file);
  const name = relative(process.cwd(), path) || path;
  const section = markdownSection(readFileSync(path, 'utf8'), title);
  if (section === undefined) throw new Error(`${name} has no section "## ${title}".`);
  const blocks = markedCodeBlocks(section, marker);
  return {
    names: [...blocks.keys()],
    block(blockName) {
      const text = blocks.get(blockName);
      if (text === undefined) throw new Error(`${name} has no ${marker} block "${blockName}".`);
      return text;
    },
  };
}
