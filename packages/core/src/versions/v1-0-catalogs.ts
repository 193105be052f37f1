/**
 * The v1.0 basic catalog (`specification/v1_0/catalogs/basic/catalog.json`): the same 18
 * components and 14 functions as v0.9, with v1.0's property changes and `protocolVersion` "1.0".
 */
import type { Catalog } from '../catalog/catalog.js';
import { createCatalog } from '../catalog/catalog.js';
import { BASIC_FUNCTIONS } from '../functions/basic-functions.js';
import basicSchema from '../validation/schemas/v1_0/catalogs/basic/catalog.json' with {
  type: 'json',
};

/** `catalogId` of the v1.0 basic catalog. */
export const V1_0_BASIC_CATALOG_ID =
  'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json';

let builtins: readonly Catalog[] | undefined;

/** The v1.0 basic catalog, built on first use. */
export function v10BuiltinCatalogs(): readonly Catalog[] {
  builtins ??= Object.freeze([
    createCatalog({
      catalogId: V1_0_BASIC_CATALOG_ID,
      protocolVersion: 'v1.0',
      schema: basicSchema as Record<string, unknown>,
      functions: BASIC_FUNCTIONS,
    }),
  ]);
  return builtins;
}
