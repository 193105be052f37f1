/**
 * Property (issue 19 "Proof"): random valid v0.9 streams, migrated to v1.0 and to v0.8 and
 * replayed through the processor (each in its own version), end in the same state as the v0.9
 * stream itself. The generated content is what both targets can express, so the migration must
 * also report no loss. v1.0 streams in the drafted `@` spelling (`"version": "1.0"`, `@path`,
 * `@call`, `@@x`, …) migrate back to v0.9 in v0.9's spelling.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDefaultCatalogs } from '../catalog/index.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ComponentInstance, ServerMessage } from '../protocol/messages.js';
import { MessageProcessor } from '../state/message-processor.js';
import { type StateSnapshot, snapshotState } from '../state/snapshot.js';
import { V1_0_AT_ESCAPE, V1_0_RESERVED_KEY_ALIASES } from '../versions/v1-0-spelling.js';
import { type MigrationVersion, migrateMessages } from './migrate-messages.js';

const V = 'v0.9' as const;
const ids = ['root', 'c1', 'c2', 'c3', 'c4'];
const id = fc.constantFrom(...ids);
const key = fc.constantFrom('a', 'b', 'name', 'count', 'flag');
/** Action context keys; `@at` is a literal key the drafted v1.0 spelling escapes as `@@at`. */
const contextKey = fc.constantFrom('a', 'name', '@at');
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
          context: fc.dictionary(contextKey, bound(fc.oneof(text, fc.integer(), fc.boolean())), {
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

/** Components v1.0 and v0.9 both express but v0.8 does not: function calls, accessibility. */
const v10Component: fc.Arbitrary<ComponentInstance> = fc.oneof(
  component,
  fc.record(
    {
      id,
      component: fc.constant('Text'),
      text: fc.record({
        call: fc.constant('formatString'),
        args: fc.record({ value: fc.constantFrom('Hi ${/name}', 'n=${/count}') }),
      }),
      accessibility: fc.record({ label: bound(text) }),
    },
    { requiredKeys: ['id', 'component', 'text'] },
  ) as fc.Arbitrary<ComponentInstance>,
);

/** Data without arrays or null (v0.8 has neither), objects two levels deep at most. */
const primitive = fc.oneof(text, fc.integer(), fc.boolean());
const dataObject = fc.dictionary(
  key,
  fc.oneof(primitive, fc.dictionary(key, primitive, { maxKeys: 2 })),
  {
    maxKeys: 3,
  },
);

const surfaceMessage = (
  surfaceId: string,
  components: fc.Arbitrary<ComponentInstance> = component,
): fc.Arbitrary<ServerMessage> =>
  fc.oneof(
    fc.uniqueArray(components, { minLength: 1, maxLength: 4, selector: (entry) => entry.id }).map(
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
const streamOf = (components: fc.Arbitrary<ComponentInstance>): fc.Arbitrary<ServerMessage[]> =>
  fc
    .tuple(fc.array(surfaceMessage('s', components), { maxLength: 6 }), fc.boolean())
    .map(([updates, deleteAtEnd]) => [
      { version: V, createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
      ...updates,
      ...(deleteAtEnd ? [{ version: V, deleteSurface: { surfaceId: 's' } } as ServerMessage] : []),
    ]);
const stream = streamOf(component);

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

/** Bare reserved key → its drafted `@` spelling (the reverse of the table the reader uses). */
const AT_SPELLING = new Map(
  Object.entries(V1_0_RESERVED_KEY_ALIASES).map(([at, bare]) => [bare, at]),
);

/**
 * `value` (components) in the drafted v1.0 spelling: every reserved key `@`-prefixed. Literal
 * keys starting with `@` are escaped as `@@…` by the migration already (v1.0 reserves `@` in
 * either spelling).
 */
function atSpelled(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(atSpelled);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [AT_SPELLING.get(name) ?? name, atSpelled(item)]),
  );
}

/** A v1.0 message as a later draft writes it: `"version": "1.0"`, components `@`-spelled. */
function inAtSpelling(message: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...message, version: '1.0' };
  for (const kind of ['createSurface', 'updateComponents']) {
    const body = message[kind] as Record<string, unknown> | undefined;
    if (body?.components !== undefined)
      result[kind] = { ...body, components: atSpelled(body.components) };
  }
  return result;
}

/** Keys in `value` that only the drafted v1.0 spelling has: reserved `@` keys and `@@` escapes. */
function atOnlyKeys(value: unknown, found: string[] = []): string[] {
  if (typeof value !== 'object' || value === null) return found;
  for (const [name, item] of Object.entries(value)) {
    if (Object.hasOwn(V1_0_RESERVED_KEY_ALIASES, name) || name.startsWith(V1_0_AT_ESCAPE))
      found.push(name);
    atOnlyKeys(item, found);
  }
  return found;
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

  it('writes v0.9 spelling when a v1.0 stream in the drafted @ spelling goes back to v0.9', () => {
    fc.assert(
      fc.property(streamOf(v10Component), (messages) => {
        const v10 = migrateMessages(messages, { to: 'v1.0' }).messages.map(inAtSpelling);
        // The generator puts a call or an escaped literal key in most streams; check it did here.
        const spelled = atOnlyKeys(v10);
        const back = migrateMessages(v10, { to: 'v0.9' });
        expect(back.issues).toEqual([]);
        expect(atOnlyKeys(back.messages)).toEqual([]);
        expect(back.messages.every((message) => message.version === 'v0.9')).toBe(true);
        expect(replay(back.messages)).toEqual(replay(messages));
        // The engine reads the @-spelled stream itself to the same state as well.
        if (spelled.length > 0)
          expect(withoutCatalogIds(replay(v10))).toEqual(withoutCatalogIds(replay(messages)));
      }),
      { numRuns: 150 },
    );
  });

  it('reports an unknown @ key of a v1.0 stream instead of passing it to v0.9', () => {
    const { messages, issues } = migrateMessages(
      [
        { version: '1.0', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
        {
          version: '1.0',
          updateComponents: {
            surfaceId: 's',
            components: [{ id: 'root', component: 'Text', text: { '@bind': '/name' } }],
          },
        },
      ],
      { to: 'v0.9' },
    );
    expect(messages).toHaveLength(1);
    expect(issues).toEqual([
      {
        index: 1,
        path: '/updateComponents/components/0/text/@bind',
        message: expect.stringContaining('Unknown reserved key "@bind"'),
      },
    ]);
  });

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
