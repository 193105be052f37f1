import { describe, expect, it } from 'vitest';
import {
  PRINCIPAL_SCOPE_LENGTH,
  principalScope,
  scopedClientKey,
  typedKeyText,
} from './client-key.js';
import { defaultPrincipalKey } from './principal.js';

describe('client keys scoped to a principal', () => {
  it('tells apart keys of different JSON types', async () => {
    const values = [1, '1', 1n, true, 'true', null, 'null', undefined, { a: 1 }, '{"a":1}', -0, 0];
    expect(new Set(values.map(typedKeyText)).size).toBe(values.length);
    expect(await principalScope(1)).not.toBe(await principalScope('1'));
    expect(await scopedClientKey('ada', 1)).not.toBe(await scopedClientKey('ada', '1'));
  });

  it('never lets the characters of a principal or an id make two pairs meet', async () => {
    const pairs: Array<[unknown, string]> = [
      ['a\u0000b', 'c'],
      ['a', 'b\u0000c'],
      ['a"', ',"b'],
      ['a', '","b'],
      [undefined, 'x'],
      ['', 'x'],
    ];
    const ids = await Promise.all(pairs.map(([key, id]) => scopedClientKey(key, id, 'p-')));
    expect(new Set(ids).size).toBe(pairs.length);
    expect(ids.every((id) => /^p-[A-Za-z0-9_-]{43}$/.test(id))).toBe(true);
  });

  it('gives a string principal that looks like an object key a scope of its own', async () => {
    const principals = [{ user: 'ada' }, 'json:{"user":"ada"}', 'str:json:{"user":"ada"}'];
    const keys = principals.map(defaultPrincipalKey);
    expect(new Set(keys).size).toBe(principals.length);
    const scopes = await Promise.all(keys.map((key) => principalScope(key)));
    expect(new Set(scopes).size).toBe(principals.length);
    expect(defaultPrincipalKey('ada')).toBe('ada');
  });

  it('is stable for equal principals, and one-way', async () => {
    const scope = await principalScope(defaultPrincipalKey({ user: 'ada' }));
    expect(scope).toBe(await principalScope(defaultPrincipalKey({ user: 'ada' })));
    expect(scope).toMatch(new RegExp(`^[A-Za-z0-9_-]{${PRINCIPAL_SCOPE_LENGTH}}$`));
    expect(scope).not.toContain('ada');
  });

  it('gives principals JSON cannot encode a scope of their own identity', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const other: Record<string, unknown> = {};
    other.self = other;
    expect(await principalScope(cyclic)).toBe(await principalScope(cyclic));
    expect(await principalScope(cyclic)).not.toBe(await principalScope(other));
    expect(await principalScope(Symbol('a'))).not.toBe(await principalScope(Symbol('a')));
  });
});
