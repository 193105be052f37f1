/**
 * The basic and minimal catalogs of v0.9 (digest §9, §10.4), with their precompiled validators
 * (each a chunk imported on first need; see `builtin-validator-modules.ts`).
 */

import { BASIC_FUNCTIONS } from '../functions/basic-functions.js';
import { MINIMAL_FUNCTIONS } from '../functions/minimal-functions.js';
import { BASIC_CATALOG_ID, MINIMAL_CATALOG_ID } from '../protocol/constants.js';
import {
  lazyBasicCatalogValidator,
  lazyMinimalCatalogValidator,
} from '../validation/builtin-catalog-validators.js';
import basicSchema from '../validation/schemas/catalogs/basic/catalog.json' with { type: 'json' };
import minimalSchema from '../validation/schemas/catalogs/minimal/catalog.json' with {
  type: 'json',
};
import { v08BuiltinCatalogs } from '../versions/v0-8/v08-catalogs.js';
import { v10BuiltinCatalogs } from '../versions/v1-0-catalogs.js';
import { type Catalog, createCatalog } from './catalog.js';
import { CatalogRegistry } from './catalog-registry.js';

/** The v0.9 basic catalog: 18 components, 14 functions. */
export const basicCatalog: Catalog = createCatalog({
  catalogId: BASIC_CATALOG_ID,
  schema: basicSchema as Record<string, unknown>,
  functions: BASIC_FUNCTIONS,
  validator: lazyBasicCatalogValidator(),
});

/** The v0.9 minimal catalog: Text, Row, Column, Button, TextField and `capitalize`. */
export const minimalCatalog: Catalog = createCatalog({
  catalogId: MINIMAL_CATALOG_ID,
  schema: minimalSchema as Record<string, unknown>,
  functions: MINIMAL_FUNCTIONS,
  validator: lazyMinimalCatalogValidator(),
});

/**
 * A new registry holding the v0.9 basic catalog, then the minimal one (preference order), then
 * the v1.0 basic catalog, so that every built-in protocol version has its basic catalog.
 */
export function createDefaultCatalogs(): CatalogRegistry {
  return new CatalogRegistry([
    basicCatalog,
    minimalCatalog,
    ...v10BuiltinCatalogs(),
    ...v08BuiltinCatalogs(),
  ]);
}
