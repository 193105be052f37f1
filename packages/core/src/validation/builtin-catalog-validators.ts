/**
 * The built-in catalogs' validators as the default catalogs use them: each imports its chunk on
 * first need (`builtin-validator-modules.ts`), and is synchronous at once where the module was
 * handed over statically (Node).
 */

import {
  basicValidatorModule,
  minimalValidatorModule,
  v10BasicValidatorModule,
} from './builtin-validator-modules.js';
import type { CatalogValidator, PrecompiledCatalogModule } from './catalog-validator.js';
import { createLazyCatalogValidator } from './lazy-catalog-validator.js';
import type { LazyModule } from './lazy-module.js';
import basicSchema from './schemas/catalogs/basic/catalog.json' with { type: 'json' };
import minimalSchema from './schemas/catalogs/minimal/catalog.json' with { type: 'json' };
import v10BasicSchema from './schemas/v1_0/catalogs/basic/catalog.json' with { type: 'json' };

/** One lazy validator per built-in catalog, made on first ask. */
function builtin(
  schema: { readonly catalogId: string; readonly [keyword: string]: unknown },
  module: LazyModule<PrecompiledCatalogModule>,
): () => CatalogValidator {
  let validator: CatalogValidator | undefined;
  return () => {
    validator ??= createLazyCatalogValidator({ catalogId: schema.catalogId, schema, module });
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
