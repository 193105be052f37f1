/**
 * `@a2ui-ts/core/compile` — validators for custom catalogs. These import the Ajv compiler:
 * `compileCatalogValidator` compiles at run time (it needs `eval`, so not under a strict CSP);
 * `generateCatalogValidatorModule` precompiles a catalog to a standalone ES module at build time
 * (what `a2ui compile-catalog` does), which `createPrecompiledCatalogValidator` then loads
 * without `eval`.
 *
 * @module
 */

export type { CompileCatalogValidatorOptions } from './validation/compile-catalog-validator.js';
export { compileCatalogValidator } from './validation/compile-catalog-validator.js';
export type {
  GenerateCatalogModuleOptions,
  GenerateDeclarationsOptions,
} from './validation/generate-catalog-module.js';
export {
  generateCatalogValidatorDeclarations,
  generateCatalogValidatorModule,
} from './validation/generate-catalog-module.js';
export { compileV08CatalogValidator } from './versions/v0-8/compile-v08-catalog-validator.js';
