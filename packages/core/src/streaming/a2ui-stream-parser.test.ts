import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { createA2uiStreamParser } from './a2ui-stream-parser.js';
import type { A2uiStreamPart } from './stream-types.js';

const createSurface = {
  version: 'v0.9',
  createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
};

function messagesOf(parts: readonly A2uiStreamPart[]): unknown[] {
  return parts.flatMap((part) => (part.type === 'messages' ? part.messages : []));
}

function thrownBy(action: () => unknown): A2uiError {
  try {
    action();
  } catch (error) {
    if (A2uiError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an A2uiError');
}

describe('createA2uiStreamParser: text', () => {
  it('passes text through at once, holding back only what may begin the open tag', () => {
    const parser = createA2uiStreamParser();
    expect(parser.push('Hello <a2')).toEqual([{ type: 'text', text: 'Hello ' }]);
    expect(parser.push('b')).toEqual([{ type: 'text', text: '<a2b' }]);
    expect(parser.push(' and <a2ui-j')).toEqual([{ type: 'text', text: ' and ' }]);
    expect(parser.end()).toEqual([{ type: 'text', text: '<a2ui-j' }]);
  });

  it('reads a block that holds one message rather than an array', () => {
    const parser = createA2uiStreamParser();
    const parts = parser.push(`Here:<a2ui-json>${JSON.stringify(createSurface)}</a2ui-json>Done.`);
    expect(parts).toEqual([
      { type: 'text', text: 'Here:' },
      { type: 'messages', messages: [createSurface] },
      { type: 'text', text: 'Done.' },
    ]);
  });
});

describe('createA2uiStreamParser: components', () => {
  it('streams a v0.9 tree with placeholders, validated against the basic catalog by default', () => {
    const parser = createA2uiStreamParser();
    parser.push(`<a2ui-json>[${JSON.stringify(createSurface)},`);
    const head = parser.push(
      '{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["title","body"]},',
    );
    expect(messagesOf(head)).toEqual([
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 's',
          components: [
            { id: 'root', component: 'Column', children: ['loading_title', 'loading_body'] },
            { id: 'loading_title', component: 'Row', children: [] },
            { id: 'loading_body', component: 'Row', children: [] },
          ],
        },
      },
    ]);
    const title = parser.push('{"id":"title","component":"Text","text":"Wea');
    expect(messagesOf(title)).toEqual([
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 's',
          components: [
            { id: 'root', component: 'Column', children: ['title', 'loading_body'] },
            { id: 'title', component: 'Text', text: 'Wea' },
            { id: 'loading_body', component: 'Row', children: [] },
          ],
        },
      },
    ]);
  });

  it('holds components back until their surface starts, and orphans for good', () => {
    const parser = createA2uiStreamParser({ validateMessage: false });
    const update = {
      version: 'v0.9',
      updateComponents: {
        surfaceId: 's',
        components: [
          { id: 'root', component: 'Text', text: 'hi' },
          { id: 'orphan', component: 'Text', text: 'never shown' },
        ],
      },
    };
    expect(parser.push(`<a2ui-json>[${JSON.stringify(update)},`)).toEqual([]);
    const parts = parser.push(`${JSON.stringify(createSurface)}]</a2ui-json>`);
    expect(messagesOf(parts)).toEqual([
      createSurface,
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 's',
          components: [{ id: 'root', component: 'Text', text: 'hi' }],
        },
      },
    ]);
  });

  it('upgrades v0.8 relative paths and uses the v0.8 placeholder', () => {
    const parser = createA2uiStreamParser({ version: 'v0.8' });
    parser.push('<a2ui-json>[{"beginRendering":{"surfaceId":"s","root":"root"}},');
    const parts = parser.push(
      '{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Card":{"child":"c","label":{"path":"name"}}}}',
    );
    expect(messagesOf(parts)).toEqual([
      {
        surfaceUpdate: {
          surfaceId: 's',
          components: [
            { id: 'root', component: { Card: { child: 'loading_c', label: { path: '/name' } } } },
            { id: 'loading_c', component: { Row: { children: { explicitList: [] } } } },
          ],
        },
      },
    ]);
  });
});

describe('createA2uiStreamParser: errors', () => {
  it('rejects a block without JSON, then stays spent', () => {
    const parser = createA2uiStreamParser();
    const error = thrownBy(() => parser.push('<a2ui-json>not json</a2ui-json>'));
    expect(error.code).toBe('INVALID_JSON');
    expect(thrownBy(() => parser.push('more text'))).toBe(error);
  });

  it('rejects an unclosed block without JSON at the end of the stream', () => {
    const parser = createA2uiStreamParser();
    parser.push('<a2ui-json>oops');
    expect(thrownBy(() => parser.end()).code).toBe('INVALID_JSON');
  });

  it('reports a reference cycle reachable from the root', () => {
    const parser = createA2uiStreamParser({ validateMessage: false });
    parser.push(`<a2ui-json>[${JSON.stringify(createSurface)},`);
    const error = thrownBy(() =>
      parser.push(
        '{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"a"},{"id":"a","component":"Card","child":"root"}]}}]',
      ),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.data?.reason).toBe('cycle');
    expect(error.message).toContain('Circular reference detected');
  });

  it.each([
    ['back to the root', ['root>a', 'a>b', 'b>root']],
    ['among components that become reachable together', ['x>y', 'y>x', 'root>x']],
    ['through a component that gains a child', ['root>a', 'a>b', 'b', 'b>a']],
  ])('reports a cycle closed one component per push: %s', (_, links) => {
    const parser = createA2uiStreamParser({ validateMessage: false });
    parser.push(
      `<a2ui-json>[${JSON.stringify(createSurface)},{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[`,
    );
    const push = (link: string, index: number) => {
      const [id, child] = link.split('>');
      const component =
        child === undefined ? { id, component: 'Card' } : { id, component: 'Card', child };
      return parser.push(`${index === 0 ? '' : ','}${JSON.stringify(component)}`);
    };
    for (const [index, link] of links.slice(0, -1).entries()) push(link, index);
    const error = thrownBy(() => push(links.at(-1)!, links.length - 1));
    expect(error.data?.reason).toBe('cycle');
    expect(error.message).toContain('Circular reference detected');
  });

  it('rejects a finished message that fails validation, with the issue and its pointer', () => {
    const parser = createA2uiStreamParser();
    const error = thrownBy(() =>
      parser.push('<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s"}}]</a2ui-json>'),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.path).toBe('/createSurface/catalogId');
    expect(error.message).toMatch(/^Validation failed: /);
  });

  it('sends what parses when validation is off, and asks a custom validator with the context', () => {
    const seen: { partial: boolean; version: string }[] = [];
    const parser = createA2uiStreamParser({
      validateMessage: (_message, context) => {
        seen.push({ ...context });
        return [];
      },
    });
    const parts = parser.push(
      '<a2ui-json>[{"version":"v0.9","createSurface":{"surfaceId":"s"}}]</a2ui-json>',
    );
    expect(messagesOf(parts)).toHaveLength(1);
    expect(seen.every((context) => !context.partial && context.version === 'v0.9')).toBe(true);
  });
});

describe('createA2uiStreamParser: v1.0', () => {
  it('sends createSurface with inline components once, then streams later changes as v1.0 updates', () => {
    const parser = createA2uiStreamParser({ version: 'v1.0' });
    const create = {
      version: 'v1.0',
      createSurface: {
        surfaceId: 's',
        components: [
          { id: 'root', component: 'Column', children: ['a'] },
          { id: 'a', component: 'Text', text: 'A' },
        ],
      },
    };
    expect(messagesOf(parser.push(`<a2ui-json>[${JSON.stringify(create)},`))).toEqual([create]);
    const update = parser.push(
      '{"version":"v1.0","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","text":"B"}]}}]</a2ui-json>',
    );
    expect(messagesOf(update)).toEqual([
      {
        version: 'v1.0',
        updateComponents: {
          surfaceId: 's',
          components: [
            { id: 'a', component: 'Text', text: 'B' },
            { id: 'root', component: 'Column', children: ['a'] },
          ],
        },
      },
    ]);
  });
});
