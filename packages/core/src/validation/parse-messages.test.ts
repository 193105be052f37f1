import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { parseJsonLines, toMessageList } from './message-list.js';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  parseClientMessage,
  parseServerMessage,
  safeParseClientMessage,
  safeParseServerMessage,
  utf8ByteLength,
} from './parse-messages.js';

const deleteSurface = { version: 'v0.9', deleteSurface: { surfaceId: 's1' } };

function thrown(run: () => unknown): A2uiError {
  try {
    run();
  } catch (error) {
    if (A2uiError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an A2uiError');
}

describe('parseServerMessage / safeParseServerMessage', () => {
  it('parse JSON text and values', () => {
    expect(parseServerMessage(JSON.stringify(deleteSurface))).toEqual(deleteSurface);
    expect(parseServerMessage(deleteSurface)).toBe(deleteSurface);
    expect(safeParseServerMessage(JSON.stringify(deleteSurface))).toEqual({
      success: true,
      value: deleteSurface,
    });
  });

  it('malformed JSON → INVALID_JSON', () => {
    const result = safeParseServerMessage('{"version": "v0.9", ');
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ path: '', keyword: 'json' });
    expect(result.errors[0]!.message).toContain('Invalid JSON');
    expect(thrown(() => parseServerMessage('{nope}')).code).toBe('INVALID_JSON');
  });

  it('wrong version → issue at /version naming the supported version', () => {
    const result = safeParseServerMessage('{"version":"v0.10","deleteSurface":{"surfaceId":"s1"}}');
    expect(result).toEqual({
      success: false,
      errors: [
        {
          path: '/version',
          keyword: 'const',
          message:
            'Unsupported version "v0.10": this library speaks A2UI "v0.9" only. Set "version": "v0.9".',
        },
      ],
    });
    const error = thrown(() => parseServerMessage({ ...deleteSurface, version: 'v0.8' }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.path).toBe('/version');
    expect(error.message).toContain('/version: Unsupported version "v0.8"');
    expect(error.data?.issues).toHaveLength(1);
  });

  it('a 10 MB string → MESSAGE_TOO_LARGE without parsing it', () => {
    const huge = `{"version":"v0.9","updateDataModel":{"surfaceId":"s1","value":"${'x'.repeat(10 * 1024 * 1024)}"}}`;
    const result = safeParseServerMessage(huge);
    expect(result.success === false && result.errors[0]).toMatchObject({
      path: '',
      keyword: 'maxMessageBytes',
    });
    expect(result.success === false && result.errors[0]?.message).toContain('1048576 bytes');
    expect(thrown(() => parseServerMessage(huge)).code).toBe('MESSAGE_TOO_LARGE');
  });

  it('measures maxMessageBytes in UTF-8 bytes', () => {
    const text = JSON.stringify({ ...deleteSurface, deleteSurface: { surfaceId: 'é'.repeat(40) } });
    const bytes = new TextEncoder().encode(text).length;
    expect(utf8ByteLength(text)).toBe(bytes);
    expect(utf8ByteLength('😀a\uD800')).toBe(new TextEncoder().encode('😀a\uD800').length);
    expect(safeParseServerMessage(text, { maxMessageBytes: bytes }).success).toBe(true);
    expect(safeParseServerMessage(text, { maxMessageBytes: bytes - 1 }).success).toBe(false);
    expect(text.length).toBeLessThan(bytes - 1); // the UTF-16 length alone would have passed
    expect(DEFAULT_MAX_MESSAGE_BYTES).toBe(1_048_576);
  });

  it('100,000-deep nesting → VALIDATION_FAILED at the path where depth was exceeded, no stack overflow', () => {
    const depth = 100_000;
    const text = `{"version":"v0.9","updateDataModel":{"surfaceId":"s1","value":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const result = safeParseServerMessage(text);
    expect(result.success).toBe(false);
    if (result.success) return;
    // Levels: message 1, updateDataModel 2, value 3, so level 65 is value + 62 indexes.
    const expectedPath = `/updateDataModel/value${'/0'.repeat(62)}`;
    expect(result.errors).toEqual([
      {
        path: expectedPath,
        keyword: 'maxDepth',
        message: expect.stringContaining('more than 64 levels'),
      },
    ]);
    const error = thrown(() => parseServerMessage(text, { maxDepth: 10 }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.path).toBe(`/updateDataModel/value${'/0'.repeat(8)}`);

    let value: unknown = [];
    for (let level = 0; level < depth; level++) value = [value];
    const fromValue = safeParseServerMessage({
      version: 'v0.9',
      updateDataModel: { surfaceId: 's1', value },
    });
    expect(fromValue.success === false && fromValue.errors[0]?.keyword).toBe('maxDepth');
  });

  it('returns, never throws, for an unregistered catalog', () => {
    const result = safeParseServerMessage(deleteSurface, { catalogId: 'urn:nope' });
    expect(result.success === false && result.errors[0]).toMatchObject({
      path: '',
      keyword: 'catalog',
    });
    expect(thrown(() => parseServerMessage(deleteSurface, { catalogId: 'urn:nope' })).code).toBe(
      'CATALOG_NOT_FOUND',
    );
  });

  it('never throws from safeParse on hostile or odd input', () => {
    const inputs: unknown[] = [
      '',
      '   ',
      'null',
      '[]',
      '"text"',
      '1e999999',
      undefined,
      null,
      42,
      Symbol.iterator,
      () => 1,
      new Map(),
    ];
    for (const input of inputs) {
      const result = safeParseServerMessage(input);
      expect(result.success).toBe(false);
      if (!result.success) expect(result.errors.length).toBeGreaterThan(0);
    }
  });

  it('reports every issue in data.issues with the first as the error path', () => {
    const error = thrown(() =>
      parseServerMessage(
        {
          version: 'v0.9',
          updateComponents: {
            surfaceId: 's1',
            components: [
              { id: 'a', component: 'Text', text: 1 },
              { id: 'b', component: 'Icon' },
            ],
          },
        },
        { catalogId: BASIC_CATALOG_ID },
      ),
    );
    expect(error.path).toBe('/updateComponents/components/0/text');
    expect(error.message).toContain('(and 1 more issue)');
    expect(error.data?.issues).toHaveLength(2);
  });
});

describe('parseClientMessage / safeParseClientMessage', () => {
  const action = {
    version: 'v0.9',
    action: {
      name: 'go',
      surfaceId: 's1',
      sourceComponentId: 'b',
      timestamp: '2026-01-15T12:00:00Z',
      context: {},
    },
  };

  it('parses, and reports problems like the server parser', () => {
    expect(parseClientMessage(JSON.stringify(action))).toEqual(action);
    expect(safeParseClientMessage('{').success).toBe(false);
    expect(thrown(() => parseClientMessage('[')).code).toBe('INVALID_JSON');
    expect(thrown(() => parseClientMessage('x'.repeat(20), { maxMessageBytes: 10 })).code).toBe(
      'MESSAGE_TOO_LARGE',
    );
    const wrong = safeParseClientMessage({ ...action, version: 'v1' });
    expect(wrong.success === false && wrong.errors[0]?.path).toBe('/version');
    // maxDepth bounds each context value; the message, action and context levels are envelope.
    const fits = { ...action, action: { ...action.action, context: { a: { b: { c: {} } } } } };
    expect(safeParseClientMessage(fits, { maxDepth: 3 }).success).toBe(true);
    const deep = safeParseClientMessage(
      { ...action, action: { ...action.action, context: { a: { b: { c: { d: {} } } } } } },
      { maxDepth: 3 },
    );
    expect(deep.success === false && deep.errors[0]).toMatchObject({
      path: '/action/context/a/b/c/d',
      keyword: 'maxDepth',
    });
  });
});

describe('toMessageList', () => {
  it('accepts one message, an array, a wrapper and a sample file', () => {
    expect(toMessageList(deleteSurface)).toEqual([deleteSurface]);
    expect(toMessageList([deleteSurface, deleteSurface])).toHaveLength(2);
    expect(toMessageList({ messages: [deleteSurface] })).toEqual([deleteSurface]);
    expect(toMessageList({ name: 'Sample', description: 'd', messages: [deleteSurface] })).toEqual([
      deleteSurface,
    ]);
    expect(toMessageList({ messages: 'x' })).toEqual([{ messages: 'x' }]);
    expect(toMessageList(null)).toEqual([null]);
  });
});

describe('parseJsonLines', () => {
  it('parses each non-blank line and numbers bad ones', () => {
    const text = `${JSON.stringify(deleteSurface)}\r\n\n  \n{"broken": \n${JSON.stringify(deleteSurface)}`;
    const lines = parseJsonLines(text);
    expect(lines.map((entry) => entry.line)).toEqual([1, 4, 5]);
    expect(lines[0]).toEqual({ line: 1, value: deleteSurface });
    expect(lines[1]?.value).toBeUndefined();
    expect(lines[1]?.error).toMatchObject({ path: '', keyword: 'json' });
    expect(lines[1]?.error?.message).toMatch(/^Line 4: Invalid JSON/);
    expect(lines[2]).toEqual({ line: 5, value: deleteSurface });
  });

  it('applies maxMessageBytes per line', () => {
    const [entry] = parseJsonLines(`"${'x'.repeat(100)}"`, { maxMessageBytes: 50 });
    expect(entry?.error?.keyword).toBe('maxMessageBytes');
  });
});
