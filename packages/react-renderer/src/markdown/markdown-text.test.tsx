import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MarkdownText, prepareMarkdown } from './markdown-text.js';

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
