import {
  BASIC_CATALOG_ID,
  basicCatalog,
  type Catalog,
  createDefaultCatalogs,
  MessageProcessor,
  minimalCatalog,
  type ServerMessage,
  snapshotState,
} from '@a2ui-ts/core';
import { EXAMPLE_STREAMS } from '@a2ui-ts/core/examples';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { weatherCard } from '../../test/fixtures.js';
import { readCatalogDocument } from '../catalog/catalog-document.js';
import { createReferenceIndex, referencedIds } from '../catalog/component-references.js';
import { RenderStream } from './render-stream.js';
import { SurfaceMirror } from './surface-mirror.js';

const v = 'v0.9' as const;

/**
 * References on the client's surfaces to components it does not have: what a renderer shows as
 * a placeholder (`surfaceId/componentId → missing id`).
 */
function danglingReferences(client: MessageProcessor, catalog: Catalog): string[] {
  const references = createReferenceIndex(readCatalogDocument(catalog));
  return client.getSurfaces().flatMap((surface) =>
    [...surface.components.values()].flatMap((record) =>
      referencedIds(record.properties, references.get(record.type) ?? [])
        .filter((id) => !surface.components.has(id))
        .map((id) => `${surface.surfaceId}/${record.id} → ${id}`),
    ),
  );
}

function setup(catalog: Catalog = basicCatalog, options: { maxMessageBytes?: number } = {}) {
  const mirror = new SurfaceMirror({
    catalog,
    validator: catalog.validator!,
    references: createReferenceIndex(readCatalogDocument(catalog)),
    reservedSurfaceIds: new Set(['llm-agent']),
    maxMessageBytes: options.maxMessageBytes ?? 1_048_576,
  });
  // The client: a real processor that must accept everything the stream sends.
  const client = new MessageProcessor({ catalogs: createDefaultCatalogs() });
  const batches: ServerMessage[][] = [];
  /** Placeholders the client would have shown, after any batch. */
  const placeholders: string[] = [];
  const send = (messages: ServerMessage[]) => {
    batches.push(messages);
    const { errors } = client.process(messages);
    if (errors.length > 0)
      throw new Error(`The client rejected a batch: ${JSON.stringify(errors)}`);
    placeholders.push(...danglingReferences(client, catalog));
  };
  const render = (messages: unknown, chunkSize = Number.POSITIVE_INFINITY, progressive = true) => {
    const stream = new RenderStream({ mirror, send, progressive });
    const text = JSON.stringify({ messages });
    for (let index = 0; index < text.length; index += chunkSize)
      stream.write(text.slice(index, index + chunkSize));
    return stream.finish(JSON.parse(text));
  };
  return { mirror, client, batches, placeholders, render };
}

describe('RenderStream', () => {
  it('renders every official example stream, accepted by the client at every step', () => {
    for (const example of EXAMPLE_STREAMS) {
      const { render, client, placeholders } = setup(
        example.catalog === 'basic' ? basicCatalog : minimalCatalog,
      );
      const outcome = render(example.messages, 13);
      expect(outcome.issues, example.file).toEqual([]);
      expect(placeholders, example.file).toEqual([]);
      expect(outcome.ok).toBe(true);
      expect(client.getSurfaces().length).toBeGreaterThan(0);
    }
  });

  it('ends in the same state at every chunk size, streamed or whole', () => {
    const whole = setup();
    whole.render(weatherCard(), Number.POSITIVE_INFINITY, false);
    const expected = snapshotState(whole.client);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), (chunkSize) => {
        const streamed = setup();
        const outcome = streamed.render(weatherCard(), chunkSize);
        expect(outcome.ok).toBe(true);
        expect(snapshotState(streamed.client)).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });

  it('sends each component as soon as it and what it references are complete', () => {
    const { render, batches, placeholders } = setup();
    render(weatherCard(), 5);
    const sent = batches
      .flat()
      .flatMap((message) =>
        'updateComponents' in message ? [message.updateComponents.components] : [],
      )
      .map((components) =>
        components.map((component) =>
          'children' in component ? `${component.id}[${component.children}]` : component.id,
        ),
      );
    // The root column shows the children that arrived; the button waits for its label.
    expect(sent).toEqual([
      ['title', 'root[title]'],
      ['temperature', 'root[title,temperature]'],
      ['refresh-label', 'refresh', 'root[title,temperature,refresh]'],
    ]);
    expect(placeholders).toEqual([]);
  });

  it('never lets the client show a placeholder, at any chunk size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), (chunkSize) => {
        const { render, placeholders } = setup();
        // biome-ignore lint/suspicious/noExplicitAny: the test reorders a fixture's components
        const card = weatherCard() as Array<Record<string, any>>;
        card[2]!.updateComponents.components.reverse();
        expect(render(card, chunkSize).ok).toBe(true);
        expect(render(weatherCard('again'), chunkSize).ok).toBe(true);
        expect(placeholders).toEqual([]);
      }),
      { numRuns: 20 },
    );
  });

  it('reports invalid components at their pointer and sends the valid ones', () => {
    const { render, client, placeholders } = setup();
    const outcome = render(weatherCard({ path: 7 }), 9);
    expect(outcome.ok).toBe(false);
    expect(outcome.issues).toEqual([
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        path: '/messages/2/updateComponents/components/1/text/path',
      }),
      expect.objectContaining({
        path: '/messages/2/updateComponents/components/0',
        message: expect.stringContaining('references "title"'),
      }),
    ]);
    const surface = client.getSurface('weather')!;
    expect([...surface.components.values()].map((record) => record.id).sort()).toEqual([
      'refresh',
      'refresh-label',
      'root',
      'temperature',
    ]);
    // The column shows what is valid, without a placeholder for the refused title.
    expect(surface.components.get('root')!.properties).toMatchObject({
      children: ['temperature', 'refresh'],
    });
    expect(placeholders).toEqual([]);
  });

  it('shows a held component once the model corrects what it references', () => {
    const { mirror, render, client, batches, placeholders } = setup();
    // biome-ignore lint/suspicious/noExplicitAny: the test edits a fixture's nested members
    const card = weatherCard() as Array<Record<string, any>>;
    const bad = structuredClone(card);
    // The button's label: an unknown property, so the button cannot be shown either.
    bad[2]!.updateComponents.components[4].size = 'huge';
    const first = render(bad, 11);
    expect(first.ok).toBe(false);
    expect(first.issues.map((issue) => issue.path)).toEqual([
      '/messages/2/updateComponents/components/4/size',
      '/messages/2/updateComponents/components/3',
    ]);
    expect(client.getSurface('weather')!.components.has('refresh')).toBe(false);
    expect(mirror.describe()).toContain(
      'held back until their references are valid: root (Column), refresh (Button)',
    );
    const before = batches.length;
    // The correction: only the fixed label.
    const second = render([
      {
        version: v,
        updateComponents: {
          surfaceId: 'weather',
          components: [card[2]!.updateComponents.components[4]],
        },
      },
    ]);
    expect(second.ok).toBe(true);
    const whole = setup();
    whole.render(card);
    expect(snapshotState(client)).toEqual(snapshotState(whole.client));
    expect(batches.slice(before).flat()).toHaveLength(1);
    expect(placeholders).toEqual([]);
  });

  it('holds components back until the envelope is known, then judges the envelope', () => {
    const { render, batches } = setup();
    const [create, data] = weatherCard();
    // "components" before "surfaceId", and no version: nothing can stream; the message decides.
    const outcome = render(
      [
        create,
        data,
        {
          updateComponents: {
            components: [{ id: 'root', component: 'Text', text: 'x' }],
            surfaceId: 'weather',
          },
        },
      ],
      4,
    );
    expect(outcome.issues).toEqual([
      expect.objectContaining({ path: '/messages/2/version' }),
      expect.objectContaining({
        message: expect.stringContaining('has no component with id "root"'),
      }),
    ]);
    expect(batches.flat().some((message) => 'updateComponents' in message)).toBe(false);
  });

  it('reports a surface without root, a missing child and a cycle', () => {
    const { render } = setup();
    const outcome = render([
      { version: v, createSurface: { surfaceId: 'a', catalogId: BASIC_CATALOG_ID } },
      {
        version: v,
        updateComponents: {
          surfaceId: 'a',
          components: [{ id: 'x', component: 'Text', text: 'x' }],
        },
      },
      { version: v, createSurface: { surfaceId: 'b', catalogId: BASIC_CATALOG_ID } },
      {
        version: v,
        updateComponents: {
          surfaceId: 'b',
          components: [
            { id: 'root', component: 'Card', child: 'loop' },
            { id: 'loop', component: 'Column', children: ['root', 'ghost'] },
          ],
        },
      },
    ]);
    expect(
      outcome.issues.map((issue) => [issue.surfaceId, issue.path, issue.message.slice(0, 60)]),
    ).toEqual([
      ['a', '', 'Surface "a" has no component with id "root", so nothing of i'],
      [
        'b',
        '/messages/3/updateComponents/components/0',
        'Component "root" references "loop", which contains "root" (a',
      ],
      [
        'b',
        '/messages/3/updateComponents/components/1',
        'Component "loop" references "ghost", which surface "b" does ',
      ],
      [
        'b',
        '/messages/3/updateComponents/components/1',
        'Component "loop" references "root", which contains "loop" (a',
      ],
    ]);
  });

  it('holds back an update that would close a cycle, keeping what the client has', () => {
    const { render, client, placeholders } = setup();
    render([
      { version: v, createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
      {
        version: v,
        updateComponents: {
          surfaceId: 's',
          components: [
            { id: 'root', component: 'Column', children: ['a'] },
            { id: 'a', component: 'Text', text: 'a' },
          ],
        },
      },
    ]);
    const outcome = render([
      {
        version: v,
        updateComponents: {
          surfaceId: 's',
          components: [{ id: 'a', component: 'Column', children: ['root'] }],
        },
      },
    ]);
    expect(outcome.issues).toEqual([
      expect.objectContaining({
        path: '/messages/0/updateComponents/components/0',
        message: expect.stringContaining('Component "a" references "root", which contains "a"'),
      }),
    ]);
    expect(client.getSurface('s')!.components.get('a')!.type).toBe('Text');
    expect(placeholders).toEqual([]);
  });

  it('replaces a surface the model creates again in a new request', () => {
    const { mirror, render, client, batches } = setup();
    render(weatherCard('one'));
    mirror.beginRequest();
    const outcome = render(weatherCard('two'));
    expect(outcome.ok).toBe(true);
    expect(batches[3]!.map((message) => Object.keys(message)[1])).toEqual([
      'deleteSurface',
      'createSurface',
    ]);
    expect(client.getSurface('weather')!.components.get('title')!.properties.text).toBe('two');
  });

  it('keeps a surface the same request creates again the same way, sending only what changed', () => {
    const { render, client, batches } = setup();
    render(weatherCard('one'));
    const before = batches.length;
    expect(render(weatherCard('two')).ok).toBe(true);
    const again = batches.slice(before).flat();
    expect(again.map((message) => Object.keys(message)[1])).toEqual([
      'updateDataModel',
      'updateComponents',
    ]);
    expect(again[1]).toMatchObject({
      updateComponents: { components: [{ id: 'title', text: 'two' }] },
    });
    expect(client.getSurface('weather')!.components.get('title')!.properties.text).toBe('two');
  });

  it('refuses what the client would refuse, without sending it', () => {
    const { render, batches } = setup(basicCatalog, { maxMessageBytes: 400 });
    const outcome = render([
      { version: v, createSurface: { surfaceId: 'llm-agent', catalogId: BASIC_CATALOG_ID } },
      { version: v, createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
      { version: v, updateDataModel: { surfaceId: 's', value: { text: 'x'.repeat(500) } } },
      { version: v, updateDataModel: { surfaceId: 's', value: { a: 'b' } } },
      { version: v, updateDataModel: { surfaceId: 's', path: '/a/b', value: 1 } },
      {
        version: v,
        updateComponents: { surfaceId: 's', components: [{ id: 'root', component: 'Nope' }] },
      },
      {
        version: v,
        updateComponents: {
          surfaceId: 's',
          components: [{ id: 'root', component: 'Text', text: 'ok' }],
        },
      },
    ]);
    expect(outcome.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ['VALIDATION_FAILED', '/messages/0/createSurface/surfaceId'],
      ['MESSAGE_TOO_LARGE', '/messages/2'],
      ['DATA_ERROR', '/messages/4'],
      ['VALIDATION_FAILED', '/messages/5/updateComponents/components/0/component'],
    ]);
    expect(outcome.issues[2]!.message).toContain('(data path "/a")');
    expect(batches.flat().map((message) => Object.keys(message)[1])).toEqual([
      'createSurface',
      'updateDataModel',
      'updateComponents',
    ]);
  });

  it('settles from the final arguments when the stream broke or never came', () => {
    const { mirror, client } = setup();
    const send = (messages: ServerMessage[]) => client.process(messages);
    const broken = new RenderStream({ mirror, send });
    const text = JSON.stringify({ messages: weatherCard() });
    broken.write(text.slice(0, 300));
    broken.write('}}} not json');
    // The provider still produced parseable final arguments (it repaired them): they decide.
    expect(broken.finish(JSON.parse(text)).ok).toBe(true);
    expect(client.getSurface('weather')!.components.size).toBe(5);

    const silent = new RenderStream({ mirror, send });
    // A model that wrote the array as a JSON string.
    expect(silent.finish({ messages: JSON.stringify(weatherCard('again')) }).ok).toBe(true);
    expect(new RenderStream({ mirror, send }).finish({ nope: 1 }).issues[0]!.path).toBe(
      '/messages',
    );
  });
});
