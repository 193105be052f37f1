/**
 * Property (issue 19 "Proof"): random valid v0.9 streams, migrated to v1.0 and to v0.8 and
 * replayed through the processor (each in its own version), end in the same state as the v0.9
 * stream itself. The generated content is what both targets can express, so the migration must
 * also report no loss.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDefaultCatalogs } from '../catalog/index.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ComponentInstance, ServerMessage } from '../protocol/messages.js';
import { MessageProcessor } from '../state/message-processor.js';
import { type StateSnapshot, snapshotState } from '../state/snapshot.js';
import { type MigrationVersion, migrateMessages } from './migrate-messages.js';

const V = 'v0.9' as const;
const ids = ['root', 'c1', 'c2', 'c3', 'c4'];
const id = fc.constantFrom(...ids);
const key = fc.constantFrom('a', 'b', 'name', 'count', 'flag');
const text = fc.string({ maxLength: 8 });
const path = fc.constantFrom('/a', '/b', '/name', '/a/b', 'name');
const bound = <T>(literal: fc.Arbitrary<T>) =>
  fc.oneof(
    literal,
    path.map((value) => ({ path: value })),
  );

/** Basic-catalog components, with the properties both v0.8 and v1.0 can carry. */
const component: fc.Arbitrary<ComponentInstance> = fc.oneof(
  fc.record({
    id,
    component: fc.constant('Text'),
    text: bound(text),
    variant: fc.constantFrom('body', 'caption'),
  }),
  fc.record(
    {
      id,
      component: fc.constant('Image'),
      url: bound(fc.constantFrom('https://x.test/a.png', 'https://x.test/b.png')),
      fit: fc.constantFrom('contain', 'cover', 'scaleDown'),
      variant: fc.constantFrom('icon', 'avatar', 'header'),
    },
    { requiredKeys: ['id', 'component', 'url'] },
  ),
  fc.record(
    {
      id,
      component: fc.constantFrom('Row', 'Column'),
      children: fc.oneof(
        fc.uniqueArray(id, { maxLength: 3 }),
        fc.record({ componentId: id, path: fc.constantFrom('/items', '/a') }),
      ),
      justify: fc.constantFrom('start', 'center', 'spaceBetween'),
      align: fc.constantFrom('start', 'center', 'stretch'),
    },
    { requiredKeys: ['id', 'component', 'children'] },
  ),
  fc.record({ id, component: fc.constant('Card'), child: id }),
  fc.record(
    {
      id,
      component: fc.constant('Button'),
      child: id,
      variant: fc.constant('primary'),
      action: fc.record({
        event: fc.record({
          name: fc.constantFrom('submit', 'go'),
          context: fc.dictionary(key, bound(fc.oneof(text, fc.integer(), fc.boolean())), {
            maxKeys: 2,
          }),
        }),
      }),
    },
    { requiredKeys: ['id', 'component', 'child', 'action'] },
  ),
  fc.record({
    id,
    component: fc.constant('CheckBox'),
    label: bound(text),
    value: bound(fc.boolean()),
  }),
  fc.record(
    {
      id,
      component: fc.constant('TextField'),
      label: bound(text),
      value: bound(text),
      variant: fc.constantFrom('shortText', 'longText', 'number', 'obscured'),
    },
    { requiredKeys: ['id', 'component', 'label'] },
  ),
  fc.record({
    id,
    component: fc.constant('Slider'),
    value: bound(fc.integer({ min: 0, max: 10 })),
    min: fc.constant(0),
    max: fc.constant(10),
  }),
  fc.record({
    id,
    component: fc.constant('ChoicePicker'),
    value: bound(fc.uniqueArray(fc.constantFrom('x', 'y'), { maxLength: 2 })),
    options: fc.constant([
      { label: 'X', value: 'x' },
      { label: 'Y', value: 'y' },
    ]),
    variant: fc.constant('multipleSelection'),
    displayStyle: fc.constantFrom('checkbox', 'chips'),
  }),
  fc.record({
    id,
    component: fc.constant('Divider'),
    axis: fc.constantFrom('horizontal', 'vertical'),
  }),
  fc.record({ id, component: fc.constant('Modal'), trigger: id, content: id }),
  fc.record({
    id,
    component: fc.constant('Tabs'),
    tabs: fc.array(fc.record({ title: bound(text), child: id }), { minLength: 1, maxLength: 2 }),
  }),
) as fc.Arbitrary<ComponentInstance>;

/** Data without arrays or null (v0.8 has neither), objects two levels deep at most. */
const primitive = fc.oneof(text, fc.integer(), fc.boolean());
const dataObject = fc.dictionary(
  key,
  fc.oneof(primitive, fc.dictionary(key, primitive, { maxKeys: 2 })),
  {
    maxKeys: 3,
  },
);

const surfaceMessage = (surfaceId: string): fc.Arbitrary<ServerMessage> =>
  fc.oneof(
    fc.uniqueArray(component, { minLength: 1, maxLength: 4, selector: (entry) => entry.id }).map(
      (components): ServerMessage => ({
        version: V,
        updateComponents: { surfaceId, components },
      }),
    ),
    dataObject.map(
      (value): ServerMessage => ({ version: V, updateDataModel: { surfaceId, path: '/', value } }),
    ),
    fc.tuple(fc.constantFrom('/a', '/b', '/name'), fc.oneof(primitive, dataObject)).map(
      ([at, value]): ServerMessage => ({
        version: V,
        updateDataModel: { surfaceId, path: at, value },
      }),
    ),
  );

/** createSurface, then updates; sometimes deleteSurface at the end. */
const stream: fc.Arbitrary<ServerMessage[]> = fc
  .tuple(fc.array(surfaceMessage('s'), { maxLength: 6 }), fc.boolean())
  .map(([updates, deleteAtEnd]) => [
    { version: V, createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
    ...updates,
    ...(deleteAtEnd ? [{ version: V, deleteSurface: { surfaceId: 's' } } as ServerMessage] : []),
  ]);

function replay(messages: readonly unknown[]): StateSnapshot {
  const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
  processor.process([...messages]);
  return snapshotState(processor);
}

/** The state with each surface's catalog id left out: each version names its own basic catalog. */
function withoutCatalogIds(state: StateSnapshot): StateSnapshot {
  const surfaces: StateSnapshot['surfaces'] = {};
  for (const [surfaceId, surface] of Object.entries(state.surfaces)) {
    surfaces[surfaceId] = { ...surface, catalogId: '' };
  }
  return { surfaces };
}

describe('migrateMessages, replayed', () => {
  for (const to of ['v0.8', 'v1.0'] as MigrationVersion[]) {
    it(`gives a random v0.9 stream's final state when migrated to ${to}`, () => {
      fc.assert(
        fc.property(stream, (messages) => {
          const { messages: migrated, issues } = migrateMessages(messages, { to });
          expect(issues).toEqual([]);
          // Replayed in its own version: the processor routes v0.8 by its keys, v1.0 by `version`.
          expect(withoutCatalogIds(replay(migrated))).toEqual(withoutCatalogIds(replay(messages)));
        }),
        { numRuns: 150 },
      );
    });
  }

  it('comes back to the same v0.9 state after v0.9 → v1.0 → v0.9 and v0.9 → v0.8 → v0.9', () => {
    fc.assert(
      fc.property(stream, fc.constantFrom<MigrationVersion>('v0.8', 'v1.0'), (messages, via) => {
        const there = migrateMessages(messages, { to: via }).messages;
        const back = migrateMessages(there, { to: 'v0.9' });
        expect(back.issues).toEqual([]);
        expect(replay(back.messages)).toEqual(replay(messages));
      }),
      { numRuns: 100 },
    );
  });
});
