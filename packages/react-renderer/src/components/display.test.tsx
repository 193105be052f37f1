/**
 * Text, Image, Icon, Video, AudioPlayer and Divider: every property of §9.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { flush, renderMessages, setData, settle, surface } from '../../test/test-client.js';
import { BASIC_ICON_PATHS } from '../index.js';

const one = (component: Record<string, unknown>, data?: unknown) =>
  renderMessages(surface([{ id: 'root', ...component }], data));

describe('Text', () => {
  it.each([
    ['h1', 'H1'],
    ['h2', 'H2'],
    ['h3', 'H3'],
    ['h4', 'H4'],
    ['h5', 'H5'],
  ])('variant %s is a real heading', (variant, tag) => {
    const { view } = one({ component: 'Text', text: 'Title', variant });
    const element = view.container.querySelector('[data-a2ui-id="root"]')!;
    expect(element.tagName).toBe(tag);
    expect(element.className).toContain(`a2ui-text-${variant}`);
    expect(
      screen.getByRole('heading', { level: Number(variant.slice(1)), name: 'Title' }),
    ).toBeTruthy();
  });

  it('minHeadingLevel shifts variants and markdown headings below the page, keeping their look', () => {
    const { view } = renderMessages(
      surface([
        { id: 'root', component: 'Column', children: ['h1', 'h4', 'h5', 'md', 'quoted'] },
        { id: 'h1', component: 'Text', text: 'Title', variant: 'h1' },
        { id: 'h4', component: 'Text', text: 'Deep', variant: 'h4' },
        { id: 'h5', component: 'Text', text: 'Deeper', variant: 'h5' },
        { id: 'md', component: 'Text', text: '# Section\n\n## Sub\n\n###### Last' },
        { id: 'quoted', component: 'Text', text: '> # Quoted\n> text' },
      ]),
      { minHeadingLevel: 3 },
    );
    const part = (id: string) => view.container.querySelector(`[data-a2ui-id="${id}"]`)!;
    expect(view.container.querySelector('h1, h2')).toBeNull();
    expect(part('h1').tagName).toBe('H3');
    expect(part('h1').className).toContain('a2ui-text-h1');
    expect(screen.getByRole('heading', { level: 3, name: 'Title' })).toBeTruthy();
    expect(part('h4').tagName).toBe('H6');
    // HTML has no h7: deeper levels stay h6.
    expect(part('h5').tagName).toBe('H6');
    expect([...part('md').querySelectorAll('h3, h4, h6')].map((h) => h.tagName)).toEqual([
      'H3',
      'H4',
      'H6',
    ]);
    expect(part('quoted').querySelector('blockquote h3')?.textContent).toBe('Quoted');
  });

  it('minHeadingLevel 1 (the default) keeps the levels; anything but an integer 1–6 is refused', () => {
    const { view } = one({ component: 'Text', text: 'Title', variant: 'h2' }, undefined);
    expect(view.container.querySelector('[data-a2ui-id="root"]')?.tagName).toBe('H2');
    for (const minHeadingLevel of [0, 7, 2.5, Number.NaN]) {
      expect(() =>
        renderMessages(surface([{ id: 'root', component: 'Text', text: 'x' }]), {
          minHeadingLevel,
        }),
      ).toThrow(/minHeadingLevel must be an integer from 1 to 6/);
    }
  });

  it('caption and body (the default) render as text with their class', () => {
    const { view } = renderMessages(
      surface([
        { id: 'root', component: 'Column', children: ['c', 'b'] },
        { id: 'c', component: 'Text', text: 'Small print', variant: 'caption' },
        { id: 'b', component: 'Text', text: 'Body' },
      ]),
    );
    expect(view.container.querySelector('[data-a2ui-id="c"]')?.className).toContain(
      'a2ui-text-caption',
    );
    expect(view.container.querySelector('[data-a2ui-id="b"]')?.className).toContain(
      'a2ui-text-body',
    );
  });

  it('renders markdown: emphasis, lists, headings; links and images keep only their text', () => {
    const { view } = one({
      component: 'Text',
      text: '# Heading 1\n\nThis is **bold** and *italic* and `code`.\n\n- one\n- two\n\n[Link to Google](https://google.com) ![a cat](https://example.com/cat.png)',
    });
    const root = view.container.querySelector('[data-a2ui-id="root"]')!;
    expect(root.tagName).toBe('DIV');
    expect(root.querySelector('h1')?.textContent).toBe('Heading 1');
    expect(root.querySelector('strong')?.textContent).toBe('bold');
    expect(root.querySelector('em')?.textContent).toBe('italic');
    expect(root.querySelector('code')?.textContent).toBe('code');
    expect(root.querySelectorAll('li')).toHaveLength(2);
    expect(root.querySelector('a, img')).toBeNull();
    expect(root.textContent).toContain('Link to Google');
    expect(root.textContent).toContain('a cat');
    expect(root.innerHTML).not.toContain('google.com');
  });

  it('a one-line label stays a label: no list from a leading dash, no paragraph inside a button', () => {
    const { view } = renderMessages(
      surface([
        { id: 'root', component: 'Row', children: ['a', 'b', 'c'] },
        { id: 'a', component: 'Text', text: ' - Qty: ' },
        { id: 'b', component: 'Text', text: '1. Rinse **well**' },
        { id: 'c', component: 'Text', text: '# Big', variant: 'h1' },
      ]),
    );
    expect(view.container.querySelector('ul, ol, p')).toBeNull();
    expect(view.container.querySelector('[data-a2ui-id="a"]')?.tagName).toBe('SPAN');
    expect(view.container.querySelector('[data-a2ui-id="b"]')?.textContent).toBe('1. Rinse well');
    expect(view.container.querySelector('[data-a2ui-id="c"]')?.outerHTML).toContain('>Big<');
  });

  it('text over the markdown caps is shown as plain text, never dropped', () => {
    const long = '_a*'.repeat(8000);
    const deep = `${'>'.repeat(3000)} quoted\nnext`;
    const { view } = renderMessages(
      surface([
        { id: 'root', component: 'Column', children: ['long', 'deep', 'heading', 'capped'] },
        { id: 'long', component: 'Text', text: long },
        { id: 'deep', component: 'Text', text: deep },
        { id: 'heading', component: 'Text', text: '*a'.repeat(32000), variant: 'h2' },
        { id: 'capped', component: 'Text', text: '**bold** text' },
      ]),
      { maxMarkdownLength: 12, maxMarkdownNesting: 5 },
    );
    const text = (id: string) => view.container.querySelector(`[data-a2ui-id="${id}"]`);
    expect(text('long')?.textContent).toBe(long);
    expect(text('deep')?.textContent).toBe(deep);
    expect(text('deep')?.tagName).toBe('SPAN');
    expect(text('heading')?.tagName).toBe('H2');
    expect(text('heading')?.textContent).toBe('*a'.repeat(32000));
    // 13 characters is over maxMarkdownLength: 12.
    expect(text('capped')?.textContent).toBe('**bold** text');
    expect(view.container.querySelector('em, strong, blockquote, p')).toBeNull();
  });

  it('shows bound values of any type as text and updates them', () => {
    const test = one({ component: 'Text', text: { path: '/n' } }, { n: 42 });
    expect(screen.getByText('42')).toBeTruthy();
    test.process(setData('/n', 'forty-three'));
    expect(screen.getByText('forty-three')).toBeTruthy();
    test.process(setData('/n', undefined));
    expect(test.view.container.querySelector('[data-a2ui-id="root"]')?.textContent).toBe('');
  });

  it('accessibility label and description', () => {
    const { view } = one({
      component: 'Text',
      text: '4.9 ★',
      accessibility: { label: 'Rated 4.9 of 5', description: 'from 1,247 reviews' },
    });
    const root = view.container.querySelector('[data-a2ui-id="root"]')!;
    expect(root.querySelector('.a2ui-sr-only')?.textContent).toBe('Rated 4.9 of 5');
    expect(root.querySelector('[aria-hidden="true"]')?.textContent).toBe('4.9 ★');
    expect(root.textContent).toContain('from 1,247 reviews');
    const heading = one({
      component: 'Text',
      text: 'T',
      variant: 'h2',
      accessibility: { label: 'Title', description: 'More' },
    });
    const h2 = heading.view.container.querySelector('h2')!;
    expect(h2.getAttribute('aria-label')).toBe('Title');
    expect(document.getElementById(h2.getAttribute('aria-describedby')!)?.textContent).toBe('More');
  });
});

describe('Image', () => {
  it('url, description as alt, fit and variant', () => {
    const { view } = one({
      component: 'Image',
      url: 'https://example.com/a.png',
      description: 'A cat',
      fit: 'scaleDown',
      variant: 'avatar',
    });
    const image = screen.getByRole('img', { name: 'A cat' }) as HTMLImageElement;
    expect(image.getAttribute('src')).toBe('https://example.com/a.png');
    expect(image.style.objectFit).toBe('scale-down');
    expect(image.className).toContain('a2ui-image-avatar');
    expect(image.getAttribute('loading')).toBe('lazy');
    expect(image.getAttribute('referrerpolicy')).toBe('no-referrer');
    expect(view.container.querySelector('img')).toBe(image);
  });

  it.each(['contain', 'cover', 'fill', 'none'])('fit %s → object-fit', (fit) => {
    const { view } = one({ component: 'Image', url: 'https://example.com/a.png', fit });
    expect(view.container.querySelector('img')!.style.objectFit).toBe(fit);
  });

  it.each(['icon', 'smallFeature', 'mediumFeature', 'largeFeature', 'header'])(
    'variant %s → class',
    (variant) => {
      const { view } = one({ component: 'Image', url: 'https://example.com/a.png', variant });
      expect(view.container.querySelector('img')!.className).toContain(`a2ui-image-${variant}`);
    },
  );

  it('defaults: mediumFeature, fill, decorative without a description; label wins over description', () => {
    const { view } = one({ component: 'Image', url: 'https://example.com/a.png' });
    const image = view.container.querySelector('img')!;
    expect(image.className).toContain('a2ui-image-mediumFeature');
    expect(image.style.objectFit).toBe('fill');
    expect(image.getAttribute('alt')).toBe('');
    const labelled = one({
      component: 'Image',
      url: 'https://example.com/a.png',
      description: 'd',
      accessibility: { label: 'L' },
    });
    expect(labelled.view.container.querySelector('img')!.getAttribute('alt')).toBe('L');
  });

  it('an image that fails to load becomes a placeholder showing its description', () => {
    const test = one(
      { component: 'Image', url: { path: '/u' }, description: 'Storefront at night' },
      { u: 'https://example.com/missing.png' },
    );
    fireEvent.error(test.view.container.querySelector('img')!);
    expect(test.view.container.querySelector('img')).toBeNull();
    const placeholder = screen.getByRole('img', { name: 'Storefront at night' });
    expect(placeholder.className).toContain('a2ui-media-failed');
    expect(placeholder.textContent).toBe('Storefront at night');
    // A new URL gets its own chance to load.
    test.process(setData('/u', 'https://example.com/other.png'));
    expect(test.view.container.querySelector('img')?.getAttribute('src')).toBe(
      'https://example.com/other.png',
    );
  });

  it('a failed image without a description says so', () => {
    const test = one({ component: 'Image', url: 'https://example.com/missing.png' });
    fireEvent.error(test.view.container.querySelector('img')!);
    expect(screen.getByRole('img', { name: 'Image not available' }).textContent).toBe(
      'Image not available',
    );
  });

  it('a URL the policy refuses never reaches src and is reported once', async () => {
    const test = one(
      { component: 'Image', url: { path: '/u' }, description: 'Evil' },
      { u: 'javascript:alert(1)' },
    );
    expect(test.view.container.querySelector('img')).toBeNull();
    expect(screen.getByRole('img', { name: 'Evil' }).className).toContain('a2ui-media-blocked');
    test.process(setData('/other', 1));
    await flush();
    expect(test.errors.filter((error) => error.code === 'URL_BLOCKED')).toHaveLength(1);
    test.process(setData('/u', 'https://example.com/ok.png'));
    expect(test.view.container.querySelector('img')?.getAttribute('src')).toBe(
      'https://example.com/ok.png',
    );
  });
});

describe('Icon', () => {
  it('draws each of the 59 basic names from bundled paths with a humanized name', async () => {
    expect(Object.keys(BASIC_ICON_PATHS)).toHaveLength(59);
    const names = Object.keys(BASIC_ICON_PATHS);
    const { view } = renderMessages(
      surface([
        { id: 'root', component: 'Row', children: names.map((name) => `icon-${name}`) },
        ...names.map((name) => ({ id: `icon-${name}`, component: 'Icon', name })),
      ]),
    );
    // 59 children: more than a commit mounts for sure (MIN_CHILDREN_PER_COMMIT).
    await settle(view.container);
    const svgs = view.container.querySelectorAll('svg.a2ui-icon');
    expect(svgs).toHaveLength(59);
    expect(view.container.querySelector('.a2ui-icon-missing')).toBeNull();
    expect(
      screen.getByRole('img', { name: 'calendar today' }).querySelector('path')?.getAttribute('d'),
    ).toBe(BASIC_ICON_PATHS.calendarToday);
    for (const svg of svgs) expect(svg.getAttribute('viewBox')).toBe('0 0 24 24');
  });

  it('accepts snake_case and Material aliases, svgPath, a label, and marks unknown names', () => {
    const { view } = renderMessages(
      surface(
        [
          { id: 'root', component: 'Row', children: ['a', 'b', 'c', 'd', 'e'] },
          { id: 'a', component: 'Icon', name: { path: '/icon' } },
          { id: 'b', component: 'Icon', name: { path: '/alias' } },
          { id: 'c', component: 'Icon', name: { svgPath: 'M0 0L24 24Z' } },
          {
            id: 'd',
            component: 'Icon',
            name: { svgPath: 'M0 0L24 24Z' },
            accessibility: { label: 'Diagonal' },
          },
          { id: 'e', component: 'Icon', name: { path: '/unknown' } },
        ],
        { icon: 'shopping_cart', alias: 'play_arrow', unknown: 'noSuchIcon' },
      ),
    );
    const byId = (id: string) => view.container.querySelector(`[data-a2ui-id="${id}"]`)!;
    expect(byId('a').querySelector('path')?.getAttribute('d')).toBe(BASIC_ICON_PATHS.shoppingCart);
    expect(byId('b').querySelector('path')?.getAttribute('d')).toBe(BASIC_ICON_PATHS.play);
    expect(byId('c').getAttribute('aria-hidden')).toBe('true');
    expect(byId('c').querySelector('path')?.getAttribute('d')).toBe('M0 0L24 24Z');
    expect(screen.getByRole('img', { name: 'Diagonal' })).toBe(byId('d'));
    expect(byId('e').getAttribute('class')).toContain('a2ui-icon-missing');
  });

  it('refuses svgPath that is not path data', () => {
    const { view } = one({ component: 'Icon', name: { svgPath: '"><script>alert(1)</script>' } });
    expect(view.container.querySelector('.a2ui-icon-missing')).not.toBeNull();
    expect(view.container.innerHTML).not.toContain('script');
  });
});

describe('Video and AudioPlayer', () => {
  it('Video: native controls, URL policy, label', () => {
    const { view } = one({
      component: 'Video',
      url: 'https://example.com/v.mp4',
      accessibility: { label: 'Trailer' },
    });
    const video = view.container.querySelector('video')!;
    expect(video.getAttribute('src')).toBe('https://example.com/v.mp4');
    expect(video.hasAttribute('controls')).toBe(true);
    expect(video.getAttribute('aria-label')).toBe('Trailer');
    const blocked = one({ component: 'Video', url: 'data:video/mp4;base64,AAAA' });
    expect(blocked.view.container.querySelector('video')).toBeNull();
    expect(blocked.view.container.querySelector('.a2ui-media-blocked')).not.toBeNull();
  });

  it('AudioPlayer: controls named by the description caption', () => {
    const { view } = one({
      component: 'AudioPlayer',
      url: 'https://example.com/a.mp3',
      description: 'Episode 1',
    });
    const audio = view.container.querySelector('audio')!;
    expect(audio.getAttribute('src')).toBe('https://example.com/a.mp3');
    expect(audio.hasAttribute('controls')).toBe(true);
    const caption = view.container.querySelector('figcaption')!;
    expect(caption.textContent).toBe('Episode 1');
    expect(audio.getAttribute('aria-labelledby')).toBe(caption.id);
    const blocked = one({ component: 'AudioPlayer', url: 'javascript:alert(1)' });
    expect(blocked.view.container.querySelector('audio')).toBeNull();
  });
});

describe('Divider', () => {
  it('horizontal by default, vertical on request', () => {
    const { view } = renderMessages(
      surface([
        { id: 'root', component: 'Row', children: ['h', 'v'] },
        { id: 'h', component: 'Divider' },
        { id: 'v', component: 'Divider', axis: 'vertical' },
      ]),
    );
    expect(view.container.querySelector('[data-a2ui-id="h"]')?.tagName).toBe('HR');
    const vertical = view.container.querySelector('[data-a2ui-id="v"]')!;
    expect(vertical.tagName).toBe('HR');
    expect(vertical.getAttribute('aria-orientation')).toBe('vertical');
    expect(screen.getAllByRole('separator')).toHaveLength(2);
  });
});
