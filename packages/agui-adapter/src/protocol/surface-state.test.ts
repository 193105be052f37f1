import {
  BASIC_CATALOG_ID,
  createDefaultCatalogs,
  MessageProcessor,
  type ServerMessage,
  snapshotState,
} from '@a2ui-ts/core';
import { EXAMPLE_STREAMS } from '@a2ui-ts/core/testing';
import { JsonPatchSchema } from '@ag-ui/core/schemas';
import fc from 'fast-check';
import fastJsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { applyServerMessage, type SurfacesState, surfaceMessages } from './surface-state.js';

const { applyPatch } = fastJsonPatch;

/** Core's snapshot as JSON (holes in arrays are `null` on any wire). */
const coreSurfaces = (processor: MessageProcessor) =>
  JSON.parse(JSON.stringify(snapshotState(processor).surfaces));

/**
 * Feeds `messages` one at a time to core's processor and to the patch compiler; after every
 * message, the client's state patched with the operations (by `fast-json-patch`, validating, as
 * `@ag-ui/client` applies `STATE_DELTA`) equals core's snapshot, and every operation passes AG-UI
 * 1.0's structural patch schema.
 */
function expectStateMatchesCore(messages: readonly ServerMessage[], validate = true): void {
  const processor = new MessageProcessor({ catalogs: createDefaultCatalogs(), validate });
  const server: SurfacesState = {};
  let client: Record<string, unknown> = { surfaces: {}, other: { kept: true } };
  for (const [index, message] of messages.entries()) {
    processor.process(structuredClone(message));
    const { operations } = applyServerMessage(server, structuredClone(message), '/surfaces');
    expect(JsonPatchSchema.safeParse(operations).success, `operations of message ${index}`).toBe(
      true,
    );
    // Serialised, as they travel: nothing the server keeps may leak into the client's copy.
    const wire = JSON.parse(JSON.stringify(operations));
    client = applyPatch(client, wire, true, false).newDocument as Record<string, unknown>;
    expect(client.surfaces, `after message ${index}: ${JSON.stringify(message)}`).toEqual(
      coreSurfaces(processor),
    );
    expect(JSON.parse(JSON.stringify(server))).toEqual(client.surfaces);
  }
  expect(client.other).toEqual({ kept: true });
}

describe('state.surfaces patches', () => {
  it('follow core over every official example stream, message by message', () => {
    for (const stream of EXAMPLE_STREAMS) expectStateMatchesCore(stream.messages);
  });

  it('create missing parents, escape pointer tokens, remove only what exists, replace the root', () => {
    const id = 'a/b~c';
    const messages: ServerMessage[] = [
      {
        version: 'v0.9',
        createSurface: { surfaceId: id, catalogId: BASIC_CATALOG_ID, sendDataModel: true },
      },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: id,
          components: [{ id: 'x/y', component: 'Text', text: 'a' }],
        },
      },
      {
        version: 'v0.9',
        updateDataModel: { surfaceId: id, path: '/deep/list/2/name~1x', value: 'n' },
      },
      { version: 'v0.9', updateDataModel: { surfaceId: id, path: '/deep/list/0', value: 'first' } },
      {
        version: 'v0.9',
        updateDataModel: { surfaceId: id, path: '/deep/list/3', value: 'appended' },
      },
      { version: 'v0.9', updateDataModel: { surfaceId: id, path: '/deep/list/9', value: 'far' } },
      { version: 'v0.9', updateDataModel: { surfaceId: id, path: '/deep/list/1' } },
      { version: 'v0.9', updateDataModel: { surfaceId: id, path: '/missing/key' } },
      { version: 'v0.9', updateDataModel: { surfaceId: id, path: '/deep/list' } },
      { version: 'v0.9', updateDataModel: { surfaceId: id, path: '/deep/list/x', value: 1 } },
      { version: 'v0.9', updateDataModel: { surfaceId: id, path: '/nil', value: null } },
      { version: 'v0.9', updateDataModel: { surfaceId: id, path: '/nil/inside', value: 2 } },
      { version: 'v0.9', updateDataModel: { surfaceId: id, path: '/text', value: 'str' } },
      { version: 'v0.9', updateDataModel: { surfaceId: id, path: '/text/through', value: 3 } },
      { version: 'v0.9', updateDataModel: { surfaceId: id, value: { fresh: true } } },
      { version: 'v0.9', updateDataModel: { surfaceId: id, path: '/' } },
      { version: 'v0.9', createSurface: { surfaceId: id, catalogId: BASIC_CATALOG_ID } },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 'unknown',
          components: [{ id: 'r', component: 'Text', text: 'b' }],
        },
      },
      { version: 'v0.9', deleteSurface: { surfaceId: id } },
      { version: 'v0.9', deleteSurface: { surfaceId: id } },
    ] as ServerMessage[];
    expectStateMatchesCore(messages, false);
    const surfaces: SurfacesState = {};
    applyServerMessage(surfaces, messages[0]!, '/surfaces');
    expect(applyServerMessage(surfaces, messages[2]!, '/surfaces').operations).toEqual([
      {
        op: 'add',
        path: '/surfaces/a~1b~0c/dataModel/deep',
        value: { list: [null, null, { 'name/x': 'n' }] },
      },
    ]);
  });

  it('follow core over random update sequences', () => {
    const segment = fc.constantFrom('a', 'b', '0', '1', '2', '5', 'x/y', 't~n');
    const path = fc
      .array(segment, { minLength: 0, maxLength: 4 })
      .map((segments) =>
        segments.length === 0
          ? '/'
          : segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''),
      );
    const value = fc.oneof(
      fc.constant(undefined),
      fc.integer(),
      fc.string({ maxLength: 3 }),
      fc.constant(null),
      fc.dictionary(fc.constantFrom('a', 'b', '0'), fc.integer(), { maxKeys: 2 }),
      fc.array(fc.integer(), { maxLength: 3 }),
    );
    const surfaceId = fc.constantFrom('s1', 's/2');
    const message = fc.oneof(
      {
        weight: 1,
        arbitrary: surfaceId.map((id) => ({
          version: 'v0.9',
          createSurface: { surfaceId: id, catalogId: BASIC_CATALOG_ID },
        })),
      },
      {
        weight: 1,
        arbitrary: surfaceId.map((id) => ({ version: 'v0.9', deleteSurface: { surfaceId: id } })),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            surfaceId,
            fc.array(fc.tuple(fc.constantFrom('root', 'c~1', 'x'), fc.string({ maxLength: 3 })), {
              minLength: 1,
              maxLength: 3,
            }),
          )
          .map(([id, components]) => ({
            version: 'v0.9',
            updateComponents: {
              surfaceId: id,
              components: components.map(([cid, text]) => ({ id: cid, component: 'Text', text })),
            },
          })),
      },
      {
        weight: 6,
        arbitrary: fc.tuple(surfaceId, path, value).map(([id, p, v]) => ({
          version: 'v0.9',
          updateDataModel:
            v === undefined ? { surfaceId: id, path: p } : { surfaceId: id, path: p, value: v },
        })),
      },
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 40 }), (messages) => {
        expectStateMatchesCore(messages as ServerMessage[], false);
      }),
      { numRuns: 300, seed: 20260922 },
    );
  });

  it('rebuilds a surface from nothing with surfaceMessages', () => {
    for (const stream of EXAMPLE_STREAMS) {
      const surfaces: SurfacesState = {};
      for (const message of stream.messages)
        applyServerMessage(surfaces, structuredClone(message), '');
      const original = new MessageProcessor({ catalogs: createDefaultCatalogs() });
      original.process(structuredClone(stream.messages));
      const rebuilt = new MessageProcessor({ catalogs: createDefaultCatalogs() });
      for (const [id, surface] of Object.entries(surfaces))
        rebuilt.process(surfaceMessages(id, surface));
      expect(coreSurfaces(rebuilt)).toEqual(coreSurfaces(original));
    }
  });
});
