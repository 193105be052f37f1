import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MarkdownText, markdownNesting, prepareMarkdown } from './markdown-text.js';

describe('prepareMarkdown', () => {
  it.each([
    ['Plain label', 'plain'],
    [' - Qty: ', 'plain'],
    ['1. Rinse', 'plain'],
    ['Tom & Jerry', 'inline'],
    ['**bold**', 'inline'],
    ['# Title', 'block'],
    ['a\nb', 'block'],
  ] as const)('%j → %s', (text, mode) => {
    expect(prepareMarkdown(text).mode).toBe(mode);
  });

  it('escapes a leading block marker in inline mode', () => {
    expect(prepareMarkdown('- **x**').source).toBe('\\- **x**');
    expect(prepareMarkdown('2) *y*').source).toBe('2\\) *y*');
    expect(prepareMarkdown('> *q*').source).toBe('\\> *q*');
  });
});

describe('MarkdownText', () => {
  it('skips raw HTML and renders entities as text', () => {
    const { container } = render(
      <MarkdownText text={'a <b onclick="x()">b</b> &amp; <script>alert(1)</script>\n\nnext'} />,
    );
    expect(container.querySelector('b, script')).toBeNull();
    expect(container.innerHTML).not.toContain('onclick');
    expect(container.textContent).toContain('&');
  });

  it('renders code blocks and quotes', () => {
    const { container } = render(<MarkdownText text={'```\nconst a = 1;\n```\n\n> quoted'} />);
    expect(container.querySelector('pre code')?.textContent).toBe('const a = 1;\n');
    expect(container.querySelector('blockquote')?.textContent?.trim()).toBe('quoted');
  });
});

describe('markdown caps (super-linear or recursive parsing)', () => {
  const nestedList = (levels: number) =>
    Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n');

  it.each([
    ['"_a*" × 8000 (24 KB, quadratic emphasis)', '_a*'.repeat(8000)],
    ['"*a" × 32000 (64 KB)', '*a'.repeat(32000)],
    ['"_a*" × 3000 (9 KB, 6,000 delimiters)', '_a*'.repeat(3000)],
    ['400 nested list levels', nestedList(400)],
    ['1,000 nested list levels', nestedList(1000)],
    ['">" × 3000', '>'.repeat(3000)],
    ['"> " × 1000 on two lines', `${'> '.repeat(1000)}x\n${'> '.repeat(1000)}y`],
    ['"* " × 500', `${'* '.repeat(500)}x`],
    ['"- " × 500 on two lines', `${'- '.repeat(500)}x\ny`],
    ['"1. " × 500 on two lines', `${'1. '.repeat(500)}x\ny`],
  ])('%s renders as plain text, exactly its characters', (_name, text) => {
    const { container } = render(<MarkdownText text={text} />);
    expect(container.textContent).toBe(text);
    expect(container.querySelector('em, strong, ul, ol, li, blockquote, p, hr')).toBeNull();
    expect(container.querySelector('.a2ui-markdown-literal')).not.toBeNull();
    expect(prepareMarkdown(text).mode).toBe('literal');
  });

  it('parses text within the caps as before', () => {
    const { container } = render(<MarkdownText text={`${nestedList(20)}\n\n> *q*`} />);
    expect(container.querySelectorAll('ul').length).toBe(20);
    expect(container.querySelector('blockquote em')?.textContent).toBe('q');
    expect(prepareMarkdown('> '.repeat(20)).mode).toBe('inline');
    expect(prepareMarkdown(`${'>'.repeat(20)} x\ny`).mode).toBe('block');
    expect(prepareMarkdown(`${'>'.repeat(21)} x\ny`).mode).toBe('literal');
  });

  it('measures nesting per line from quote markers, list markers and indentation', () => {
    expect(markdownNesting('plain\ntext')).toBe(0);
    expect(markdownNesting('> > - 1. x')).toBe(4);
    expect(markdownNesting('a\n      - x\n>>> y')).toBe(4);
    expect(markdownNesting('-x *y* 1.5')).toBe(0);
  });

  it('honours maxLength and maxNesting props, and the renderer options', () => {
    const text = '**bold** and more';
    const short = render(<MarkdownText text={text} maxLength={5} />);
    expect(short.container.textContent).toBe(text);
    expect(short.container.querySelector('strong')).toBeNull();
    const shallow = render(<MarkdownText text={'> > quoted\nnext'} maxNesting={1} />);
    expect(shallow.container.querySelector('blockquote')).toBeNull();
    expect(shallow.container.textContent).toBe('> > quoted\nnext');
  });
});
