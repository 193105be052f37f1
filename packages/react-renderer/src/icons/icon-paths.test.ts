import { describe, expect, it } from 'vitest';
import { BASIC_ICON_PATHS, resolveIconPath } from './icon-paths.js';

const CATALOG_ICON_NAMES =
  'accountCircle add arrowBack arrowForward attachFile calendarToday call camera check close delete download edit event error fastForward favorite favoriteOff folder help home info locationOn lock lockOpen mail menu moreVert moreHoriz notificationsOff notifications pause payment person phone photo play print refresh rewind search send settings share shoppingCart skipNext skipPrevious star starHalf starOff stop upload visibility visibilityOff volumeDown volumeMute volumeOff volumeUp warning'.split(
    ' ',
  );

describe('icon paths', () => {
  it('cover exactly the 59 names of the basic catalog, each with distinct path data', () => {
    expect(Object.keys(BASIC_ICON_PATHS).sort()).toEqual([...CATALOG_ICON_NAMES].sort());
    for (const name of CATALOG_ICON_NAMES) expect(resolveIconPath(name)).toMatch(/^M/);
    // call and phone are both handsets in Material Symbols too; everything else differs.
    const distinct = new Set(Object.values(BASIC_ICON_PATHS));
    expect(distinct.size).toBeGreaterThanOrEqual(58);
  });

  it('resolves snake_case, kebab-case and Material aliases; unknown names give undefined', () => {
    expect(resolveIconPath('shopping_cart')).toBe(BASIC_ICON_PATHS.shoppingCart);
    expect(resolveIconPath('more-vert')).toBe(BASIC_ICON_PATHS.moreVert);
    expect(resolveIconPath('play_arrow')).toBe(BASIC_ICON_PATHS.play);
    expect(resolveIconPath('favorite_border')).toBe(BASIC_ICON_PATHS.favoriteOff);
    expect(resolveIconPath('priority_high')).toBeDefined();
    expect(resolveIconPath('toString')).toBeUndefined();
    expect(resolveIconPath('__proto__')).toBeUndefined();
    expect(resolveIconPath('nope')).toBeUndefined();
  });
});
