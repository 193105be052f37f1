import { describe, expect, it } from 'vitest';
import { loadExampleStreams } from './example-streams.js';
import { parseStreamText, validateStream } from './parse-stream-text.js';

const BASIC = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';
const create = { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC } };
const text = {
  version: 'v0.9',
  updateComponents: { surfaceId: 's', components: [{ id: 'root', component: 'Text', text: 'Hi' }] },
};

describe('parseStreamText', () => {
  it('reads a JSON array, one message, the list wrapper, a sample file and JSONL', () => {
    expect(parseStreamText(JSON.stringify([create, text]))).toEqual({
      success: true,
      messages: [create, text],
      format: 'json',
    });
    expect(parseStreamText(JSON.stringify(create))).toEqual({
      success: true,
      messages: [create],
      format: 'json',
    });
    expect(parseStreamText(JSON.stringify({ messages: [create] }))).toEqual({
      success: true,
      messages: [create],
      format: 'json',
    });
    expect(
      parseStreamText(JSON.stringify({ name: 'n', description: 'd', messages: [create, text] })),
    ).toMatchObject({ success: true, messages: [create, text] });
    expect(parseStreamText(`${JSON.stringify(create)}\r\n\n${JSON.stringify(text)}\n`)).toEqual({
      success: true,
      messages: [create, text],
      format: 'jsonl',
    });
  });

  it('reports every bad JSONL line with its number', () => {
    const result = parseStreamText(`${JSON.stringify(create)}\n{oops\n${JSON.stringify(text)}\n[`);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues.map((issue) => issue.line)).toEqual([2, 4]);
  });

  it('refuses empty and non-JSON input', () => {
    expect(parseStreamText('  ')).toMatchObject({
      success: false,
      issues: [{ message: 'The stream is empty.' }],
    });
    expect(parseStreamText('nope')).toMatchObject({
      success: false,
      issues: [{ message: expect.stringContaining('not valid JSON') }],
    });
  });
});

describe('validateStream', () => {
  it('accepts every official example', () => {
    for (const example of loadExampleStreams())
      expect(validateStream(example.messages), example.file).toEqual([]);
  });

  it('lists schema problems of every message and what applying the stream would reject', () => {
    const issues = validateStream([
      create,
      {
        version: 'v0.9',
        updateComponents: { surfaceId: 's', components: [{ id: 'root', component: 'Text' }] },
      },
      create,
      { version: 'v0.9', updateDataModel: { surfaceId: 'ghost', path: '/a', value: 1 } },
      {
        version: 'v0.9',
        createSurface: { surfaceId: 't', catalogId: 'https://example.com/unknown' },
      },
    ]);
    expect(issues.map((issue) => [issue.index, issue.path])).toEqual([
      [1, '/updateComponents/components/0/text'],
      [2, ''],
      [3, ''],
      [4, ''],
    ]);
    expect(issues[1]!.message).toContain('already exists');
    expect(issues[2]!.message).toContain('ghost');
    expect(issues[3]!.message).toContain('Catalog not found');
  });
});
