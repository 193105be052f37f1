export type { Catalog, CreateCatalogOptions } from './catalog.js';
export { createCatalog, extendCatalog } from './catalog.js';
export type { ClientCapabilitiesOptions } from './catalog-registry.js';
export { CatalogRegistry, toInlineCatalog } from './catalog-registry.js';
export type {
  CompositionRules,
  CompositionViolation,
  Placement,
} from './composition.js';
export { checkPlacement, compositionRulesOf, SURFACE_CONTAINER_TYPE } from './composition.js';
export { basicCatalog, createDefaultCatalogs, minimalCatalog } from './default-catalogs.js';
