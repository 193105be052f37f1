/**
 * The v1.0 basic catalog (`specification/v1_0/catalogs/basic/catalog.json`): the same 18
 * components and 14 functions as v0.9, with v1.0's property changes and `protocolVersion` "1.0".
 * Its components are validated against that schema by a precompiled (eval-free) validator.
 */
import type { Catalog } from '../catalog/catalog.js';
import { createCatalog } from '../catalog/catalog.js';
import { BASIC_FUNCTIONS } from '../functions/basic-functions.js';
import { emailValidationResult } from '../functions/email-validation-result.js';
import type { FunctionImplementation } from '../functions/function-types.js';
import { lazyV10BasicCatalogValidator } from '../validation/builtin-catalog-validators.js';
import basicSchema from '../validation/schemas/v1_0/catalogs/basic/catalog.json' with {
  type: 'json',
};

/** `catalogId` of the v1.0 basic catalog. */
export const V1_0_BASIC_CATALOG_ID =
  'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json';

/**
 * The v1.0 basic catalog's functions: v0.9's, with `email` returning a `ValidationResult`
 * (`INVALID_EMAIL`). The other checks still answer a boolean, which v1.0 accepts ("plain booleans
 * still work") and which lets the check's own `message` show.
 */
export const V1_0_BASIC_FUNCTIONS: readonly FunctionImplementation[] = Object.freeze(
  BASIC_FUNCTIONS.map((fn) =>
    fn.name === emailValidationResult.name ? emailValidationResult : fn,
  ),
);

let builtins: readonly Catalog[] | undefined;

/** The v1.0 basic catalog, built on first use. */
export function v10BuiltinCatalogs(): readonly Catalog[] {
  builtins ??= Object.freeze([
    createCatalog({
      catalogId: V1_0_BASIC_CATALOG_ID,
      protocolVersion: 'v1.0',
      schema: basicSchema as Record<string, unknown>,
      functions: V1_0_BASIC_FUNCTIONS,
      validator: lazyV10BasicCatalogValidator(),
    }),
  ]);
  return builtins;
}
