/**
 * Differential test: for every official example stream, our final components and data model equal
 * what `@a2ui/web_core` 0.11's `MessageProcessor` produces.
 *
 * Deliberate differences (none of them is exercised by the official examples, so the comparison
 * below is exact):
 * - `~0`/`~1` in data paths are decoded (RFC 6901); web_core keeps them literally (digest §7.2).
 * - `updateDataModel` at `/` without `value` resets the model to `{}`; web_core stores `undefined`
 *   (digest §7.1 recommends `{}`).
 * - A duplicate `createSurface`, an unknown surface or catalog, or a schema-invalid message is
 *   reported as a spec `error` and the rest of the batch still applies; web_core throws and stops.
 * - Unknown properties are dropped (and reported) instead of stored.
 */
import {
  BASIC_COMPONENTS,
  BASIC_FUNCTIONS,
  Catalog,
  MessageProcessor as WebCoreProcessor,
} from '@a2ui/web_core/v0_9';
import { describe, expect, it, vi } from 'vitest';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import { BASIC_CATALOG_ID, MINIMAL_CATALOG_ID } from '../protocol/constants.js';
import { EXAMPLE_STREAMS } from '../testing/example-streams.js';
import { MessageProcessor } from './message-processor.js';

// web_core loads Lit's development build, which announces itself on import; expected here.
vi.hoisted(() => {
  const lit = globalThis as { litIssuedWarnings?: Set<string> };
  lit.litIssuedWarnings ??= new Set();
  lit.litIssuedWarnings.add('dev-mode');
});

const MINIMAL_TYPES = new Set(['Text', 'Row', 'Column', 'Button', 'TextField']);

function webCoreState(messages: readonly unknown[]) {
  const basic = new Catalog(BASIC_CATALOG_ID, BASIC_COMPONENTS, BASIC_FUNCTIONS);
  const minimal = new Catalog(
    MINIMAL_CATALOG_ID,
    BASIC_COMPONENTS.filter((component) => MINIMAL_TYPES.has(component.name)),
    [],
  );
  const processor = new WebCoreProcessor([basic, minimal]);
  processor.processMessages(messages as never);
  const surfaces: Record<string, unknown> = {};
  for (const [surfaceId, surface] of processor.model.surfacesMap) {
    const components: Record<string, unknown> = {};
    for (const [id, component] of surface.componentsModel.entries) {
      components[id] = { type: component.type, properties: component.properties };
    }
    surfaces[surfaceId] = {
      catalogId: surface.catalog.id,
      components,
      dataModel: surface.dataModel.get('/'),
    };
  }
  return surfaces;
}

function ourState(messages: readonly unknown[]) {
  const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
  const { errors } = processor.process([...messages]);
  expect(errors).toEqual([]);
  const surfaces: Record<string, unknown> = {};
  for (const surface of processor.getSurfaces()) {
    const components: Record<string, unknown> = {};
    for (const record of surface.components.values()) {
      const { id: _id, component: _type, ...properties } = record.properties;
      components[record.id] = { type: record.type, properties };
    }
    surfaces[surface.surfaceId] = {
      catalogId: surface.catalogId,
      components,
      dataModel: surface.dataModel.getSnapshot(),
    };
  }
  return surfaces;
}

describe('differential against @a2ui/web_core 0.11 MessageProcessor', () => {
  it.each(EXAMPLE_STREAMS.map((stream) => [stream.file, stream] as const))(
    '%s ends in the same components and data model',
    (_file, stream) => {
      const expected = webCoreState(stream.messages);
      expect(Object.keys(expected).length).toBeGreaterThan(0);
      expect(ourState(stream.messages)).toEqual(expected);
    },
  );

  it('matches on prefixes of every stream too (progressive states)', () => {
    for (const stream of EXAMPLE_STREAMS) {
      for (let end = 1; end < stream.messages.length; end++) {
        const prefix = stream.messages.slice(0, end);
        expect(ourState(prefix), `${stream.file} after ${end} messages`).toEqual(
          webCoreState(prefix),
        );
      }
    }
  });
});
