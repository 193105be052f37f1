/**
 * The schema documents catalog validators word their issues from (`family-schemas.ts`, about
 * 110 kB minified), loaded on first need: only a message that fails needs them.
 */
import type * as FamilySchemasModule from './family-schemas.js';
import { LazyModule } from './lazy-module.js';

/** `family-schemas.ts` behind a dynamic import; Node gets it statically (`validator-registry.ts`). */
export const familyDocumentsModule: LazyModule<typeof FamilySchemasModule> =
  /* @__PURE__ */ new LazyModule('schema documents', () => import('./family-schemas.js'));
