/**
 * The documents tests and benchmarks keep honest: a section of a Markdown page (`## Title` up to
 * the next `## `), the code blocks of it marked `<!-- wire-test: name -->`, and the replacement of
 * a section a benchmark writes. Plain string functions; reading and writing the file is the
 * caller's.
 */

/** The section `## {title}` of `markdown` (up to the next `## ` heading), or `undefined`. */
export function markdownSection(markdown: string, title: string): string | undefined {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) return undefined;
  const next = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, next < 0 ? undefined : next);
}

/**
 * The code blocks of `markdown` that follow a `<!-- {marker}: name -->` comment, by name, with
 * their exact text (up to the closing fence).
 *
 * @example
 * ```ts
 * const blocks = markedCodeBlocks(markdownSection(doc, 'REST')!);
 * expect(answer).toBe(blocks.get('rest-connect-response')!.trimEnd());
 * ```
 */
export function markedCodeBlocks(markdown: string, marker = 'wire-test'): Map<string, string> {
  const blocks = new Map<string, string>();
  const pattern = new RegExp(`<!-- ${marker}: (\\S+) -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``, 'g');
  for (const match of markdown.matchAll(pattern)) blocks.set(match[1]!, match[2]!);
  return blocks;
}

/**
 * `markdown` with its section whose first line is `heading` (e.g. `## REST transport`) replaced by
 * `section`, or `section` appended when there is none; ends with one line break.
 */
export function replaceMarkdownSection(markdown: string, heading: string, section: string): string {
  const start = markdown.indexOf(`${heading}\n`);
  let result: string;
  if (start === -1) result = `${markdown.trimEnd()}\n\n${section}`;
  else {
    const next = markdown.indexOf('\n## ', start + 1);
    result = markdown.slice(0, start) + section + (next === -1 ? '' : markdown.slice(next + 1));
  }
  return `${result.trimEnd()}\n`;
}
