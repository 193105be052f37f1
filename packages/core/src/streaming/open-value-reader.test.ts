import { describe, expect, it } from 'vitest';
import { createA2uiStreamParser } from './a2ui-stream-parser.js';
import { DEFAULT_CUTTABLE_KEYS, parsePartialJson } from './repair-partial-json.js';
import type { A2uiStreamPart } from './stream-types.js';

const message = JSON.stringify({
  version: 'v0.9',
  updateDataModel: {
    surfaceId: 's',
    value: {
      title: 'T, x',
      items: {
        a: {
          name: 'Food, "spicy"',
          tags: ['x', 'y, z'],
          n: 1,
          deeper: { e: [[1, 2], { f: null }] },
        },
        b: { text: 'cut me, please', url: 'http://z', empty: {}, list: [] },
        c: [1, { d: true }, 'three'],
      },
      after: 2,
    },
  },
});

type Sent = { updateDataModel: { value: Record<string, unknown> } };

describe('OpenValueReader through the streaming parser', () => {
  it('shows a nested entry at every cut exactly as parsing the whole text so far would', () => {
    const parser = createA2uiStreamParser({ validateMessage: false });
    parser.push('<a2ui-json>[');
    let sent: unknown;
    const cuttable = new Set(DEFAULT_CUTTABLE_KEYS);
    for (let end = 1; end < message.length; end++) {
      const parts: A2uiStreamPart[] = parser.push(message[end - 1] as string);
      for (const part of parts) {
        if (part.type !== 'messages') continue;
        for (const item of part.messages) {
          const value = (item as Sent).updateDataModel?.value;
          if (value !== undefined && 'items' in value) sent = value.items;
        }
      }
      const whole = parsePartialJson(message.slice(0, end), cuttable) as Sent | undefined;
      const expected = whole?.updateDataModel?.value?.items;
      if (expected !== undefined) expect(sent, `after ${message.slice(0, end)}`).toEqual(expected);
    }
    expect(sent).toEqual((JSON.parse(message) as Sent).updateDataModel.value.items);
  });
});
