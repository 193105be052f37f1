/**
 * `accessibility` (§5.1; v1.0 adds `live` and `hidden`) on every basic component of a v1.0
 * surface: label → the component's accessible name (`aria-label`, or a visually hidden label),
 * description → `aria-describedby`, live → `aria-live`, hidden → `aria-hidden` (and `inert`).
 */
import { V1_0_BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { flush, renderMessages } from '../../test/test-client.js';

/** A minimal valid instance of each basic component, as `subject`, plus what it needs. */
const SUBJECTS: Record<string, Array<Record<string, unknown>>> = {
  Text: [{ component: 'Text', text: 'Hello' }],
  Image: [{ component: 'Image', url: 'https://example.com/a.png' }],
  Icon: [{ component: 'Icon', name: 'star' }],
  Video: [{ component: 'Video', url: 'https://example.com/v.mp4' }],
  AudioPlayer: [{ component: 'AudioPlayer', url: 'https://example.com/a.mp3' }],
  Row: [{ component: 'Row', children: ['leaf'] }],
  Column: [{ component: 'Column', children: ['leaf'] }],
  List: [{ component: 'List', children: ['leaf'] }],
  Card: [{ component: 'Card', child: 'leaf' }],
  Tabs: [{ component: 'Tabs', tabs: [{ title: 'One', child: 'leaf' }] }],
  Modal: [{ component: 'Modal', trigger: 'open', content: 'leaf' }],
  Divider: [{ component: 'Divider' }],
  Button: [{ component: 'Button', child: 'leaf', action: { event: { name: 'go' } } }],
  TextField: [{ component: 'TextField', label: 'Name', value: { path: '/text' } }],
  CheckBox: [{ component: 'CheckBox', label: 'Agree', value: { path: '/flag' } }],
  ChoicePicker: [
    {
      component: 'ChoicePicker',
      options: [{ label: 'A', value: 'a' }],
      value: { path: '/choice' },
    },
  ],
  Slider: [{ component: 'Slider', max: 10, value: { path: '/level' } }],
  DateTimeInput: [{ component: 'DateTimeInput', value: { path: '/when' } }],
};

const ACCESSIBILITY = {
  label: 'Agent label',
  description: 'Agent description',
  live: 'polite',
  hidden: { path: '/hidden' },
};

function renderSubject(type: string, accessibility: Record<string, unknown>) {
  const [subject] = SUBJECTS[type]!;
  return renderMessages([
    {
      version: 'v1.0',
      createSurface: {
        surfaceId: 's',
        catalogId: V1_0_BASIC_CATALOG_ID,
        components: [
          { id: 'root', component: 'Column', children: ['subject'] },
          { id: 'subject', ...subject, accessibility },
          { id: 'leaf', component: 'Text', text: 'Leaf' },
          {
            id: 'open',
            component: 'Button',
            child: 'open_label',
            action: { event: { name: 'x' } },
          },
          { id: 'open_label', component: 'Text', text: 'Open' },
        ],
        dataModel: { hidden: false, text: '', flag: false, choice: [], level: 1, when: '' },
      },
    },
  ]);
}

/** Elements of the component's own markup: its subtree, and its dialog once a Modal is open. */
function ownElements(container: HTMLElement): Element[] {
  const root = container.querySelector('[data-a2ui-id="subject"]')!;
  const dialog = document.querySelector('[role="dialog"]');
  return [
    root,
    ...root.querySelectorAll('*'),
    ...(dialog ? [dialog, ...dialog.querySelectorAll('*')] : []),
  ];
}

/** True when one of `elements` is named `name`: `aria-label`, `alt`, a `<label>` or hidden text. */
function named(elements: Element[], name: string): boolean {
  return elements.some(
    (element) =>
      element.getAttribute('aria-label') === name ||
      (element.tagName === 'IMG' && element.getAttribute('alt') === name) ||
      ((element.tagName === 'LABEL' || element.classList.contains('a2ui-sr-only')) &&
        element.textContent === name),
  );
}

/** True when one of `elements` is described by an element whose text is `description`. */
function described(elements: Element[], description: string): boolean {
  return elements.some((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .some((id) => id !== '' && document.getElementById(id)?.textContent === description),
  );
}

describe('accessibility on every basic component (v1.0)', () => {
  for (const type of Object.keys(SUBJECTS)) {
    it(`${type}: label, description, live and hidden reach ARIA`, async () => {
      const test = renderSubject(type, ACCESSIBILITY);
      const root = test.view.container.querySelector('[data-a2ui-id="subject"]')!;
      if (type === 'Modal')
        await userEvent.setup().click(screen.getByRole('button', { name: 'Open' }));
      const elements = ownElements(test.view.container);
      expect(named(elements, 'Agent label')).toBe(true);
      expect(described(elements, 'Agent description')).toBe(true);
      expect(root.getAttribute('aria-live')).toBe('polite');
      expect(root.getAttribute('aria-hidden')).toBe('false');
      test.process({
        version: 'v1.0',
        updateDataModel: { surfaceId: 's', path: '/hidden', value: true },
      });
      expect(root.getAttribute('aria-hidden')).toBe('true');
      expect(root.hasAttribute('inert')).toBe(true);
      await flush();
      expect(test.errors).toEqual([]);
    });
  }

  it('sets nothing the agent did not: no aria-live, aria-hidden or description of its own', () => {
    for (const type of Object.keys(SUBJECTS)) {
      const test = renderSubject(type, {});
      const root = test.view.container.querySelector('[data-a2ui-id="subject"]')!;
      expect([type, root.hasAttribute('aria-live'), root.hasAttribute('inert')]).toEqual([
        type,
        false,
        false,
      ]);
      expect(described(ownElements(test.view.container), 'Agent description')).toBe(false);
      test.view.unmount();
    }
  });
});
