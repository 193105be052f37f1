import { describe, expect, it } from 'vitest';
import { GrowingTextIndex, keepLatestComponentMessages } from './stream-text-scan.js';

describe('GrowingTextIndex', () => {
  it('answers for the latest complete value as the text grows, scanning only what was added', () => {
    const index = new GrowingTextIndex(['"updateComponents":'], ['surfaceId']);
    const never = () => {
      throw new Error('the whole text is read only after a cut');
    };
    index.update(0, '', () => '');
    index.update(0, '{"surfaceId": "a", "update', never);
    expect(index.valueOf('surfaceId')).toBe('a');
    expect(index.has('"updateComponents":')).toBe(false);
    index.update(0, 'Components": {"surfaceId": "b', never);
    expect(index.has('"updateComponents":')).toBe(true);
    expect(index.valueOf('surfaceId')).toBe('a'); // "b is still being written
    index.update(0, 'cd', never);
    index.update(0, '"', never);
    expect(index.valueOf('surfaceId')).toBe('bcd');
    // A key followed by anything but a string value is forgotten, not kept waiting.
    index.update(0, ', "surfaceId": 7, "x', never);
    index.update(0, '": 1, "surfaceId" : "e"', never);
    expect(index.valueOf('surfaceId')).toBe('e');
  });

  it('starts over when the text was cut', () => {
    const index = new GrowingTextIndex(['"x":'], ['surfaceId']);
    index.update(0, '', () => '{"x": 1, "surfaceId": "a"');
    index.update(1, 'ignored', () => '{"y": 2');
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
