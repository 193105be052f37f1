/**
 * The v0.8 reader (`v08-reader.ts`) behind a dynamic import: a page loads it with its first v0.8
 * message (`v08.prepareValidators`); Node gets it statically (`validator-registry.ts`).
 */
import { LazyModule } from '../../validation/lazy-module.js';
import type * as V08ReaderModule from './v08-reader.js';

/** The v0.8 reader module (`v08-reader.ts`). */
export const v08ReaderModule: LazyModule<typeof V08ReaderModule> = /* @__PURE__ */ new LazyModule(
  'v0.8 reader',
  () => import('./v08-reader.js'),
);
