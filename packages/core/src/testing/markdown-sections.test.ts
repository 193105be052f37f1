import { describe, expect, it } from 'vitest';
import { markdownSection, markedCodeBlocks, replaceMarkdownSection } from './markdown-sections.js';

const doc = [
  '# Page',
  '',
  '## One',
  '',
  '<!-- wire-test: first -->',
  '```json',
  '{"a":1}',
  '```',
  '',
  '<!-- readme-test: other -->',
  '```sh',
  'echo hi',
  '```',
  '',
  '## Two',
  '',
  'text',
  '',
].join('\n');

describe('markdown sections', () => {
  it('finds a section and its marked code blocks', () => {
    const one = markdownSection(doc, 'One')!;
    expect(one).toContain('{"a":1}');
    expect(one).not.toContain('## Two');
    expect(markdownSection(doc, 'Three')).toBeUndefined();
    expect(markedCodeBlocks(one)).toEqual(new Map([['first', '{"a":1}\n']]));
    expect(markedCodeBlocks(one, 'readme-test')).toEqual(new Map([['other', 'echo hi\n']]));
  });

  it('replaces a section, or appends it', () => {
    expect(replaceMarkdownSection(doc, '## One', '## One\n\nnew\n')).toBe(
      '# Page\n\n## One\n\nnew\n## Two\n\ntext\n',
    );
    expect(replaceMarkdownSection(doc, '## Two', '## Two\n\nnewer\n')).toContain(
      '## Two\n\nnewer\n',
    );
    expect(replaceMarkdownSection('# Page\n', '## Three', '## Three\n\nx\n')).toBe(
      '# Page\n\n## Three\n\nx\n',
    );
  });
});
