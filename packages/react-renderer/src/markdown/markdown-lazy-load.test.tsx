/**
 * `marked` loads on first need: a Text whose markdown meets the parser still loading holds its
 * place (invisible, raw syntax never shown) and renders its latest text as markdown once it has.
 * Fresh modules (`vi.resetModules`) stand for a page before the parser's chunk has arrived; the
 * test setup hands `marked` over statically to every other test.
 */
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('marked');
  vi.resetModules();
});

async function freshModules() {
  vi.resetModules();
  const parser = await import('./markdown-parser.js');
  const text = await import('./markdown-text.js');
  return { ...parser, ...text };
}

describe('markdown parser on first need', () => {
  it('holds markdown until the parser loads, then renders the latest text as markdown', async () => {
    const { markdownParserModule, MarkdownText } = await freshModules();
    expect(markdownParserModule.loaded).toBe(false);
    const { container, rerender } = render(<MarkdownText text="Total: **$20**" />);
    // Held: laid out, invisible, no element built from raw syntax.
    const pending = container.querySelector('.a2ui-markdown-pending');
    expect(pending?.textContent).toBe('Total: **$20**');
    expect(container.querySelector('strong')).toBeNull();
    // A newer text arriving while the parser loads is the one rendered once it has.
    rerender(<MarkdownText text="Total: *$25*" />);
    expect(container.querySelector('.a2ui-markdown-pending')?.textContent).toBe('Total: *$25*');
    await waitFor(() => expect(container.querySelector('em')?.textContent).toBe('$25'));
    expect(markdownParserModule.loaded).toBe(true);
    expect(container.querySelector('.a2ui-markdown-pending')).toBeNull();
    expect(container.textContent).toBe('Total: $25');
  });

  it('loads nothing for plain labels', async () => {
    const { markdownParserModule, MarkdownText } = await freshModules();
    render(<MarkdownText text="Just a label" />);
    expect(screen.getByText('Just a label')).toBeTruthy();
    await Promise.resolve();
    expect(markdownParserModule.loaded).toBe(false);
  });

  it('shows the text literally when the parser cannot load', async () => {
    vi.doMock('marked', () => {
      throw new Error('chunk unreachable');
    });
    const { MarkdownText } = await freshModules();
    const { container } = render(<MarkdownText text={'- one\n- two'} />);
    await waitFor(() =>
      expect(container.querySelector('.a2ui-markdown-literal')?.textContent).toBe('- one\n- two'),
    );
    expect(container.querySelector('.a2ui-markdown-pending')).toBeNull();
  });
});
