import { describe, expect, it } from 'vitest';
import { GrowingTextIndex, keepLatestComponentMessages } from './stream-text-scan.js';

describe('GrowingTextIndex', () => {
  it('answers for the latest complete value as the text grows, scanning only what was added', () => {
    const index = new GrowingTextIndex(['"updateComponents":'], ['surfaceId']);
    let text = '{"surfaceId": "a", "update';
    index.update(text, 0);
    expect(index.valueOf('surfaceId')).toBe('a');
    expect(index.has('"updateComponents":')).toBe(false);
    text += 'Components": {"surfaceId": "b';
    index.update(text, 0);
    expect(index.has('"updateComponents":')).toBe(true);
    expect(index.valueOf('surfaceId')).toBe('a'); // "b is still being written
    text += '"';
    index.update(text, 0);
    expect(index.valueOf('surfaceId')).toBe('b');
  });

  it('starts over when the text was cut', () => {
    const index = new GrowingTextIndex(['"x":'], ['surfaceId']);
    index.update('{"x": 1, "surfaceId": "a"', 0);
    index.update('{"y": 2', 1);
    expect(index.valueOf('surfaceId')).toBeUndefined();
    expect(index.has('"x":')).toBe(false);
  });
});

describe('keepLatestComponentMessages', () => {
  it('keeps the last component message of each surface and every other message', () => {
    const first = { updateComponents: { surfaceId: 's', components: [1] } };
    const other = { updateDataModel: { surfaceId: 's', value: {} } };
    const last = { updateComponents: { surfaceId: 's', components: [1, 2] } };
    expect(keepLatestComponentMessages([first, other, last], 'updateComponents')).toEqual([
      other,
      last,
    ]);
  });
});
