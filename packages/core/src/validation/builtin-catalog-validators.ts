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
import type { CatalogValidator } from './catalog-validator.js';
import { createLazyCatalogValidator } from './lazy-catalog-validator.js';
import basicSchema from './schemas/catalogs/basic/catalog.json' with { type: 'json' };
import minimalSchema from './schemas/catalogs/minimal/catalog.json' with { type: 'json' };
import v10BasicSchema from './schemas/v1_0/catalogs/basic/catalog.json' with { type: 'json' };

let basic: CatalogValidator | undefined;
let minimal: CatalogValidator | undefined;
let v10Basic: CatalogValidator | undefined;

/** The v0.9 basic catalog's validator, loading on first need. */
export function lazyBasicCatalogValidator(): CatalogValidator {
  basic ??= createLazyCatalogValidator({
    catalogId: basicSchema.catalogId,
    schema: basicSchema,
    module: basicValidatorModule,
  });
  return basic;
}

/** The v0.9 minimal catalog's validator, loading on first need. */
export function lazyMinimalCatalogValidator(): CatalogValidator {
  minimal ??= createLazyCatalogValidator({
    catalogId: minimalSchema.catalogId,
    schema: minimalSchema,
    module: minimalValidatorModule,
  });
  return minimal;
}

/** The v1.0 basic catalog's validator, loading on first need. */
export function lazyV10BasicCatalogValidator(): CatalogValidator {
  v10Basic ??= createLazyCatalogValidator({
    catalogId: v10BasicSchema.catalogId,
    schema: v10BasicSchema,
    module: v10BasicValidatorModule,
  });
  return v10Basic;
}
