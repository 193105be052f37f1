import { describe, expect, it } from 'vitest';
import { migrateMessages } from './migrate-messages.js';

const v09 = (text: unknown, variant = 'h1') => [
  {
    version: 'v0.9',
    createSurface: {
      surfaceId: 's',
      catalogId: 'https://a2ui.org/specification/v0_9/basic_catalog.json',
    },
  },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 's',
      components: [{ id: 'root', component: 'Text', text, variant }],
    },
  },
];

/** The root Text of `messages` once converted to `to`, and what the conversion reported. */
function rootTextIn(messages: readonly unknown[], to: 'v0.9' | 'v1.0') {
  const result = migrateMessages(messages, { to });
  const update = result.messages.find((message) => 'updateComponents' in message) as unknown as {
    updateComponents: { components: Array<Record<string, unknown>> };
  };
  return { text: update.updateComponents.components[0], issues: result.issues };
}

describe('Text headings between v0.9 and v1.0', () => {
  it('writes a v0.9 heading variant as a Markdown heading line in v1.0, and reads it back', () => {
    const cases: Array<[unknown, string, unknown]> = [
      ['Find a table', 'h1', '# Find a table'],
      [{ path: '/summary' }, 'h2', { call: 'formatString', args: { value: '## ${/summary}' } }],
      [{ path: 'name' }, 'h3', { call: 'formatString', args: { value: '### ${name}' } }],
      [
        { call: 'formatString', args: { value: 'Book ${/name}' }, returnType: 'string' },
        'h1',
        { call: 'formatString', args: { value: '# Book ${/name}' } },
      ],
      [
        {
          call: 'formatDate',
          args: { value: { path: '/date' }, format: "d 'of' M" },
          returnType: 'string',
        },
        'h5',
        {
          call: 'formatString',
          args: { value: "##### ${formatDate(value: /date, format: 'd \\'of\\' M')}" },
        },
      ],
    ];
    for (const [text, variant, markdown] of cases) {
      const up = rootTextIn(v09(text, variant), 'v1.0');
      expect(up.issues).toEqual([]);
      expect(up.text).toEqual({ id: 'root', component: 'Text', text: markdown });
      const v10 = migrateMessages(v09(text, variant), { to: 'v1.0' }).messages;
      const down = rootTextIn(v10, 'v0.9');
      expect(down.issues).toEqual([]);
      const { returnType: _dropped, ...withoutReturnType } = (
        typeof text === 'object' ? text : {}
      ) as Record<string, unknown>;
      expect(down.text).toEqual({
        id: 'root',
        component: 'Text',
        text: typeof text === 'object' ? withoutReturnType : text,
        variant,
      });
    }
  });

  it('reports the heading it cannot spell and keeps the text', () => {
    const text = { call: 'formatDate', args: { value: { path: '/a}b' }, format: 'd' } };
    const up = rootTextIn(v09(text), 'v1.0');
    expect(up.text).toEqual({ id: 'root', component: 'Text', text });
    expect(up.issues).toEqual([
      expect.objectContaining({ path: '/updateComponents/components/0/variant' }),
    ]);
  });

  it('leaves v1.0 text that is more than one heading line as body text in v0.9', () => {
    for (const text of ['# Title\n\nBody', '#Title', 'Plain']) {
      const v10 = [
        {
          version: 'v1.0',
          createSurface: {
            surfaceId: 's',
            catalogId: 'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json',
          },
        },
        {
          version: 'v1.0',
          updateComponents: {
            surfaceId: 's',
            components: [{ id: 'root', component: 'Text', text }],
          },
        },
      ];
      expect(rootTextIn(v10, 'v0.9').text).toEqual({ id: 'root', component: 'Text', text });
    }
  });
});
