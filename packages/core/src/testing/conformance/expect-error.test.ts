import { describe, expect, it } from 'vitest';
import { findExpectedError } from './expect-error.js';
import { findSubsetMismatch } from './match-expected.js';

const validation = (path: string, message: string) => ({
  code: 'VALIDATION_FAILED',
  path,
  message,
});

describe('findExpectedError', () => {
  it('matches a category through our code and a contained message', () => {
    const errors = [{ code: 'SURFACE_EXISTS', message: 'Surface s1 already exists; send …' }];
    expect(
      findExpectedError(errors, {
        category: 'IntegrityError',
        message: 'Surface s1 already exists',
      }),
    ).toBeUndefined();
    expect(findExpectedError(errors, { category: 'ValidationError' })).toMatch(
      /expected ValidationError/,
    );
    expect(findExpectedError([], 'anything')).toMatch(/got no error/);
  });

  it('checks details by path suffix and absent-versus-wrong', () => {
    const missing = [
      validation('/createSurface/catalogId', 'Missing "createSurface.catalogId": it is required.'),
    ];
    const detail = { path: 'messages.0.createSurface.catalogId', code: 'missing_field' };
    expect(
      findExpectedError(missing, { category: 'ValidationError', details: [detail] }),
    ).toBeUndefined();
    expect(
      findExpectedError(missing, { details: [{ ...detail, code: 'invalid_value' }] }),
    ).toBeDefined();
    expect(
      findExpectedError(missing, { details: [{ path: 'surfaceId', code: 'missing_field' }] }),
    ).toBeDefined();
  });

  it("accepts Ajv's words for a jsonschema phrasing", () => {
    const errors = [validation('/x', 'Expected a string, got integer.')];
    expect(findExpectedError(errors, "123 is not of type 'string'")).toBeUndefined();
  });
});

describe('findSubsetMismatch', () => {
  it('lets objects hold more keys but not arrays more items', () => {
    expect(findSubsetMismatch({ a: 1, b: 2 }, { a: 1 })).toBeUndefined();
    expect(findSubsetMismatch({ a: [1, 2] }, { a: [1] })).toMatch(/^\/a: expected 1 items/);
    expect(findSubsetMismatch({ a: { b: 1 } }, { a: { b: 2 } })).toMatch(/^\/a\/b:/);
  });
});
