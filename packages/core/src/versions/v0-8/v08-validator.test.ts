/**
 * The catalog-agnostic v0.8 schema does not enforce that a component wrapper names exactly one
 * component type; the validator does, at the wrapper's path, for every count but one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadValidators } from '../../validation/builtin-validator-modules.js';
import { v08GenericValidator, v08StandardValidator } from './v08-validator.js';

const surfaceUpdate = (component: unknown) => ({
  surfaceUpdate: {
    surfaceId: 's',
    components: [
      { id: 'a', component: { Text: { text: { literalString: 'x' } } } },
      { id: 'b', component },
    ],
  },
});

// These modules are imported alone, not through `@a2ui-ts/core` (which loads the schemas).
beforeAll(() => loadValidators());

describe('v0.8 component wrappers', () => {
  it('accepts a wrapper with one component type', () => {
    expect(v08GenericValidator.validateServerMessage(surfaceUpdate({ Divider: {} }))).toEqual([]);
  });

  it('refuses wrappers with no type or two, naming the count', () => {
    for (const [wrapper, count] of [
      [{}, 0],
      [{ Text: { text: { literalString: 'x' } }, Divider: {} }, 2],
    ] as const) {
      expect(v08GenericValidator.validateServerMessage(surfaceUpdate(wrapper))).toEqual([
        {
          path: '/surfaceUpdate/components/1/component',
          keyword: 'maxProperties',
          message: `A v0.8 component holds exactly one component type, e.g. {"Text": {…}}; found ${count}.`,
        },
      ]);
    }
  });

  it('refuses them with the standard catalog schema too, whose wrapper allows one key', () => {
    for (const wrapper of [{}, { Text: { text: { literalString: 'x' } }, Divider: {} }]) {
      const [issue, ...rest] = v08StandardValidator.validateServerMessage(surfaceUpdate(wrapper));
      expect(rest).toEqual([]);
      expect(issue?.path).toBe('/surfaceUpdate/components/1/component');
      expect(issue?.keyword).toMatch(/^(minProperties|maxProperties)$/);
    }
  });
});
