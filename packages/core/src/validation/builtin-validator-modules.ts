/**
 * The precompiled validators core ships, each a chunk that loads on first need: a page that only
 * speaks v0.9 with the basic catalog never downloads v0.8's schemas or v1.0's catalog. In Node,
 * importing `@a2ui-ts/core` hands every module over statically (`validator-registry.ts`), so
 * servers validate synchronously from the first message.
 */

import { regexEngineModule } from '../functions/regex-function.js';
import { v08ReaderModule } from '../versions/v0-8/v08-reader-module.js';
import type { PrecompiledCatalogModule } from './catalog-validator.js';
import { familyDocumentsModule } from './family-documents.js';
import type * as V08Module from './generated/v0-8.js';
import { LazyModule } from './lazy-module.js';

/** The v0.9 basic catalog's validator module (`generated/basic.js`). */
export const basicValidatorModule: LazyModule<PrecompiledCatalogModule> =
  /* @__PURE__ */ new LazyModule(
    'v0.9 basic catalog validator',
    () => import('./generated/basic.js'),
  );

/** The v0.9 minimal catalog's validator module (`generated/minimal.js`). */
export const minimalValidatorModule: LazyModule<PrecompiledCatalogModule> =
  /* @__PURE__ */ new LazyModule(
    'v0.9 minimal catalog validator',
    () => import('./generated/minimal.js'),
  );

/** The v1.0 basic catalog's validator module (`generated/v1-0-basic.js`). */
export const v10BasicValidatorModule: LazyModule<PrecompiledCatalogModule> =
  /* @__PURE__ */ new LazyModule(
    'v1.0 basic catalog validator',
    () => import('./generated/v1-0-basic.js'),
  );

/** The v0.9 MCP Apps catalog's validator module (`generated/mcp-apps.js`), for opt-in hosts. */
export const mcpAppValidatorModule: LazyModule<PrecompiledCatalogModule> =
  /* @__PURE__ */ new LazyModule(
    'v0.9 MCP Apps catalog validator',
    () => import('./generated/mcp-apps.js'),
  );

/** The v1.0 MCP Apps catalog's validator module (`generated/v1-0-mcp-apps.js`). */
export const v10McpAppValidatorModule: LazyModule<PrecompiledCatalogModule> =
  /* @__PURE__ */ new LazyModule(
    'v1.0 MCP Apps catalog validator',
    () => import('./generated/v1-0-mcp-apps.js'),
  );

/** The v0.8 message schemas (`generated/v0-8.js`). */
export const v08ValidatorModule: LazyModule<typeof V08Module> = /* @__PURE__ */ new LazyModule(
  'v0.8 message validator',
  () => import('./generated/v0-8.js'),
);

/**
 * Loads every built-in validator (with the `regex` function's RE2 engine and the v0.8 reader) now, so that validation outside `MessageProcessor`
 * (`validateServerMessage`, a catalog's `validator`) never meets `MODULE_NOT_LOADED`. Node does
 * not need it (importing `@a2ui-ts/core` loads them); a page may call it when idle.
 *
 * @returns Resolves once all are loaded.
 * @throws A2uiError `MODULE_NOT_LOADED` (rejects) when a chunk cannot be fetched
 *
 * @example
 * ```ts
 * await loadValidators();
 * ```
 */
export async function loadValidators(): Promise<void> {
  await Promise.all(
    [
      basicValidatorModule,
      minimalValidatorModule,
      v10BasicValidatorModule,
      v08ValidatorModule,
      v08ReaderModule,
      regexEngineModule,
      familyDocumentsModule,
    ].map((module) => module.load()),
  );
}
