/**
 * Hostile v0.8 component shapes (break-core): type, property and value names that are members
 * of `Object.prototype` are ordinary unknown names, never an internal error.
 */
import { describe, expect, it } from 'vitest';
import { createDefaultCatalogs } from '../../catalog/default-catalogs.js';
import { migrateMessages } from '../../migrate/migrate-messages.js';
import { MessageProcessor } from '../../state/message-processor.js';

const begin = { beginRendering: { surfaceId: 'a', root: 'root' } };
const update = (component: string) =>
  JSON.parse(
    `{"surfaceUpdate":{"surfaceId":"a","components":[{"id":"t","component":{"Text":{"text":{"literalString":"ok"}}}},{"id":"root","component":${component}}]}}`,
  ) as unknown;

describe('a v0.8 component naming Object.prototype members', () => {
  it.each([
    '{"__proto__":{"text":{"literalString":"x"}}}',
    '{"constructor":{"text":{"literalString":"x"}}}',
    '{"toString":{"text":{"literalString":"x"}}}',
    '{"Text":{"text":{"literalString":"x"},"constructor":"x"}}',
    '{"Text":{"text":{"literalString":"x"},"usageHint":"constructor"}}',
    '{"Text":{"text":{"literalString":"x"},"__proto__":"valueOf"}}',
  ])('%s gets no INTERNAL_ERROR and keeps the surface', (component) => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    processor.process([begin]);
    const { errors } = processor.process([update(component)]);
    expect(errors.filter((error) => error.code === 'INTERNAL_ERROR')).toEqual([]);
    for (const error of errors) expect(error.message).not.toMatch(/Cannot read|undefined/);
    expect(processor.getSurface('a')).toBeDefined();
    expect(({} as Record<string, unknown>).text).toBeUndefined();
  });

  it('beside a component with id "__proto__" gets a spec error, not an internal one', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    const { errors } = processor.process(
      JSON.parse(
        '[{"surfaceUpdate":{"surfaceId":"a","components":[{"id":"__proto__","component":{"Text":{"text":{"literalString":"x"}}}},{"id":"root","component":{"__proto__":{"text":{"literalString":"x"}}}}]}},{"beginRendering":{"surfaceId":"a","root":"root"}}]',
      ),
    );
    expect(errors.filter((error) => error.code === 'INTERNAL_ERROR')).toEqual([]);
    expect(processor.getSurface('a')).toBeDefined();
  });

  it('is migrated as an unknown type, never a thrown TypeError', () => {
    const { messages } = migrateMessages([begin, update('{"constructor":{"text":"x"}}')], {
      to: 'v0.9',
    });
    expect(messages.at(-1)).toEqual({
      version: 'v0.9',
      updateComponents: {
        surfaceId: 'a',
        components: [
          { id: 't', component: 'Text', text: 'ok' },
          { id: 'root', component: 'constructor', text: 'x' },
        ],
      },
    });
  });

  it('downgrades a v0.9 "constructor" component and value without throwing', () => {
    const { messages } = migrateMessages(
      [
        {
          version: 'v0.9',
          createSurface: {
            surfaceId: 's',
            catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
          },
        },
        {
          version: 'v0.9',
          updateComponents: {
            surfaceId: 's',
            components: [
              { id: 'root', component: 'constructor', text: 'x' },
              { id: 't', component: 'Text', text: 'x', variant: 'constructor' },
            ],
          },
        },
      ],
      { to: 'v0.8' },
    );
    const last = messages.at(-1) as { surfaceUpdate: { components: unknown[] } };
    expect(last.surfaceUpdate.components).toHaveLength(2);
    expect(JSON.stringify(last)).not.toContain('function');
  });
});
