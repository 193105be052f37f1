/**
 * The v0.8 standard catalog as this engine renders it: v0.8 components are upgraded to the v0.9
 * basic catalog's shapes on arrival, so it is the basic catalog (components, functions,
 * validator) under the v0.8 catalog id and protocol version.
 */
import type { Catalog } from '../../catalog/catalog.js';
import { createCatalog } from '../../catalog/catalog.js';
import { BASIC_FUNCTIONS } from '../../functions/basic-functions.js';
import { lazyBasicCatalogValidator } from '../../validation/builtin-catalog-validators.js';
import basicSchema from '../../validation/schemas/catalogs/basic/catalog.json' with {
  type: 'json',
};
import { V08_STANDARD_CATALOG_ID } from './v08-messages.js';

let builtins: readonly Catalog[] | undefined;

/** The catalogs v0.8 surfaces may use by default: the v0.8 standard catalog. */
export function v08BuiltinCatalogs(): readonly Catalog[] {
  builtins ??= Object.freeze([
    createCatalog({
      catalogId: V08_STANDARD_CATALOG_ID,
      protocolVersion: 'v0.8',
      schema: basicSchema as Record<string, unknown>,
      functions: BASIC_FUNCTIONS,
      validator: lazyBasicCatalogValidator(),
    }),
  ]);
  return builtins;
}
