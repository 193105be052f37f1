export type { Catalog, CreateCatalogOptions } from './catalog.js';
export { createCatalog, extendCatalog } from './catalog.js';
export {
  COPILOTKIT_CATALOG_IDS,
  supportsCatalogId,
  toSpecCatalogId,
} from './catalog-id-aliases.js';
export type { ClientCapabilitiesOptions } from './catalog-registry.js';
export { CatalogRegistry, toInlineCatalog } from './catalog-registry.js';
export { basicCatalog, createDefaultCatalogs, minimalCatalog } from './default-catalogs.js';
