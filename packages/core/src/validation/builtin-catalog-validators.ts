/**
 * The built-in catalogs' validators as the default catalogs use them: each imports its chunk on
 * first need (`builtin-validator-modules.ts`), and is synchronous at once where the module was
 * handed over statically (Node).
 */

import {
  MCP_APP_CATALOG_ID,
  MCP_APP_CATALOG_V1_0_ID,
  mcpAppCatalogSchema,
  mcpAppCatalogV1Schema,
} from '../catalog/mcp-app-catalog.js';
import {
  basicValidatorModule,
  mcpAppValidatorModule,
  minimalValidatorModule,
  v10BasicValidatorModule,
  v10McpAppValidatorModule,
} from './builtin-validator-modules.js';
import type { CatalogValidator, PrecompiledCatalogModule } from './catalog-validator.js';
import { createLazyCatalogValidator } from './lazy-catalog-validator.js';
import type { LazyModule } from './lazy-module.js';
import basicSchema from './schemas/catalogs/basic/catalog.json' with { type: 'json' };
import minimalSchema from './schemas/catalogs/minimal/catalog.json' with { type: 'json' };
import v10BasicSchema from './schemas/v1_0/catalogs/basic/catalog.json' with { type: 'json' };

type BuiltinSchema = { readonly catalogId: string; readonly [keyword: string]: unknown };

/**
 * One lazy validator per built-in catalog, made on first ask; `schema` may be a function for a
 * document that is built (the MCP Apps catalogs), so nothing is built before it is asked for.
 */
function builtin(
  schema: BuiltinSchema | (() => BuiltinSchema),
  module: LazyModule<PrecompiledCatalogModule>,
): () => CatalogValidator {
  let validator: CatalogValidator | undefined;
  return () => {
    if (validator) return validator;
    const document = typeof schema === 'function' ? schema() : schema;
    validator = createLazyCatalogValidator({
      catalogId: document.catalogId,
      schema: document,
      module,
    });
    return validator;
  };
}

/** The v0.9 basic catalog's validator, loading on first need. */
export const lazyBasicCatalogValidator: () => CatalogValidator = /* @__PURE__ */ builtin(
  basicSchema,
  basicValidatorModule,
);

/** The v0.9 minimal catalog's validator, loading on first need. */
export const lazyMinimalCatalogValidator: () => CatalogValidator = /* @__PURE__ */ builtin(
  minimalSchema,
  minimalValidatorModule,
);

/** The v1.0 basic catalog's validator, loading on first need. */
export const lazyV10BasicCatalogValidator: () => CatalogValidator = /* @__PURE__ */ builtin(
  v10BasicSchema,
  v10BasicValidatorModule,
);

/** The v0.9 MCP Apps catalog's validator, loading on first need (its chunk only for opt-in hosts). */
export const lazyMcpAppCatalogValidator: () => CatalogValidator = /* @__PURE__ */ builtin(
  () => ({ catalogId: MCP_APP_CATALOG_ID, ...mcpAppCatalogSchema() }),
  mcpAppValidatorModule,
);

/** The v1.0 MCP Apps catalog's validator, loading on first need. */
export const lazyV10McpAppCatalogValidator: () => CatalogValidator = /* @__PURE__ */ builtin(
  () => ({ catalogId: MCP_APP_CATALOG_V1_0_ID, ...mcpAppCatalogV1Schema() }),
  v10McpAppValidatorModule,
);
