import { describe, expect, it } from 'vitest';
import { createCatalog } from './catalog.js';
import { checkPlacement, compositionRulesOf, SURFACE_CONTAINER_TYPE } from './composition.js';

const catalog = createCatalog({
  catalogId: 'custom',
  schema: {
    components: {
      ColumnHeader: { allowedParents: ['Column'] },
      RestrictedBox: { allowedChildren: ['Text', 'Button'] },
      AppLayout: { allowedParents: [SURFACE_CONTAINER_TYPE] },
      Loose: { allowedParents: 'Column' },
      Row: { type: 'object' },
    },
  },
});

describe('composition constraints (v1.0 "Composition validation rules")', () => {
  it('reads allowedParents/allowedChildren from the catalog schema, nothing for other shapes', () => {
    expect(compositionRulesOf(catalog, 'ColumnHeader')).toEqual({
      allowedParents: ['Column'],
      allowedChildren: undefined,
    });
    expect(compositionRulesOf(catalog, 'Row')).toEqual({});
    expect(compositionRulesOf(catalog, 'Loose')).toEqual({});
    expect(compositionRulesOf(catalog, 'Missing')).toEqual({});
    expect(compositionRulesOf(undefined, 'Row')).toEqual({});
  });

  it('reports UNALLOWED_PARENT and UNALLOWED_CHILD in the conformance wording', () => {
    expect(
      checkPlacement(
        {
          parentId: 'root',
          parentType: 'Row',
          childId: 'invalid_header',
          childType: 'ColumnHeader',
        },
        compositionRulesOf(catalog, 'Row'),
        compositionRulesOf(catalog, 'ColumnHeader'),
      ),
    ).toEqual({
      code: 'UNALLOWED_PARENT',
      message:
        "Component 'invalid_header' (ColumnHeader) cannot be placed under parent 'root' (Row). Allowed parents: ['Column'].",
    });
    expect(
      checkPlacement(
        { parentId: 'root', parentType: 'RestrictedBox', childId: 'v1', childType: 'Video' },
        compositionRulesOf(catalog, 'RestrictedBox'),
        compositionRulesOf(catalog, 'Video'),
      ),
    ).toEqual({
      code: 'UNALLOWED_CHILD',
      message:
        "Container 'root' (RestrictedBox) cannot contain child 'v1' (Video). Allowed children: ['Text', 'Button'].",
    });
  });

  it('allows listed placements, the Surface container included', () => {
    const surface = { parentId: '', parentType: SURFACE_CONTAINER_TYPE };
    expect(
      checkPlacement(
        { ...surface, childId: 'root', childType: 'AppLayout' },
        {},
        compositionRulesOf(catalog, 'AppLayout'),
      ),
    ).toBeUndefined();
    expect(
      checkPlacement(
        { parentId: 'c', parentType: 'Column', childId: 'root', childType: 'AppLayout' },
        {},
        compositionRulesOf(catalog, 'AppLayout'),
      )?.code,
    ).toBe('UNALLOWED_PARENT');
    expect(
      checkPlacement(
        { parentId: 'b', parentType: 'RestrictedBox', childId: 't', childType: 'Text' },
        compositionRulesOf(catalog, 'RestrictedBox'),
        {},
      ),
    ).toBeUndefined();
  });
});
