import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CUTTABLE_KEYS,
  parsePartialJson,
  repairPartialJson,
} from './repair-partial-json.js';

const cuttable = new Set(DEFAULT_CUTTABLE_KEYS);

describe('repairPartialJson', () => {
  it('closes a cut free-text string and the open containers', () => {
    expect(repairPartialJson('{"a": [{"text": "Hel', cuttable)).toBe('{"a": [{"text": "Hel"}]}');
  });

  it('refuses to close a cut id, path or link', () => {
    expect(repairPartialJson('{"id": "butt', cuttable)).toBe('');
    expect(repairPartialJson('{"path": "/us', cuttable)).toBe('');
    expect(repairPartialJson('{"valueString": "https://exa', cuttable)).toBe('');
    expect(repairPartialJson('[{"key": "imageUrl", "valueString": "pic', cuttable)).toBe('');
  });

  it('drops a trailing comma', () => {
    expect(repairPartialJson('[1, 2, ', cuttable)).toBe('[1, 2]');
  });
});

describe('parsePartialJson', () => {
  it('falls back to the elements before a cut key', () => {
    expect(parsePartialJson('{"a": 1, "ke', cuttable)).toEqual({ a: 1 });
  });

  it('returns undefined when nothing parses', () => {
    expect(parsePartialJson('{"ke', cuttable)).toBeUndefined();
  });
});
