/**
 * Nothing the agent sends becomes markup, script or a live URL (ARCHITECTURE §5). The same
 * vectors run in real Chromium in the browser suite.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { flush, renderMessages, settle } from '../test/test-client.js';
import { XSS_STREAM } from '../test/xss-vectors.js';

describe('XSS vectors', () => {
  it('render as inert text: no script, no handler attribute, no hostile URL in the DOM', async () => {
    const opened: string[] = [];
    const test = renderMessages(XSS_STREAM, {}, { openUrl: (url) => opened.push(url) });
    const root = test.view.container;
    // More vectors than a commit mounts for sure (MIN_CHILDREN_PER_COMMIT): let them all mount.
    await settle(root);
    // Every vector passed schema validation, so every one of them reached the renderer.
    expect(test.errors.filter((error) => error.code === 'VALIDATION_FAILED')).toEqual([]);
    expect(root.querySelector('[data-a2ui-id="root"]')).not.toBeNull();
    expect(root.querySelectorAll('script, iframe, object, embed, a, img[src="x"]')).toHaveLength(0);
    for (const element of root.querySelectorAll('*')) {
      for (const attribute of element.attributes) {
        expect(attribute.name.startsWith('on'), `${element.tagName} ${attribute.name}`).toBe(false);
        if (['src', 'href', 'xlink:href', 'action', 'formaction'].includes(attribute.name)) {
          expect(attribute.value).toMatch(/^https?:/);
        }
      }
    }
    // The payloads are visible as the text they are.
    expect(screen.getAllByText(/<script>window.__xss=1<\/script>/).length).toBeGreaterThan(0);
    for (const button of screen.getAllByRole('button', { name: /Open hostile URL/ }))
      button.click();
    await flush();
    expect(opened).toEqual([]);
    expect(test.errors.some((error) => error.code === 'URL_BLOCKED')).toBe(true);
    expect((window as { __xss?: unknown }).__xss).toBeUndefined();
  });

  it('a theme colour cannot inject CSS', () => {
    const test = renderMessages(
      [
        {
          version: 'v0.9',
          createSurface: {
            surfaceId: 't',
            catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
            theme: { primaryColor: 'red;background:url(https://evil.example/x)' },
          },
        },
        {
          version: 'v0.9',
          updateComponents: {
            surfaceId: 't',
            components: [{ id: 'root', component: 'Text', text: 'x' }],
          },
        },
      ],
      {},
      { validate: false },
    );
    const element = test.view.container.querySelector<HTMLElement>('.a2ui-surface')!;
    expect(element.getAttribute('style')).toBeNull();
  });
});
