import { describe, expect, it } from 'vitest';
import { loadExampleStreams } from './example-streams.js';
import { validateStream } from './parse-stream-text.js';

const BASIC = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';
const create = { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC } };

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
