import * as re2js from 're2js';
import { regexEngineModule } from '../functions/regex-function.js';
import { BASIC_CATALOG_ID, MINIMAL_CATALOG_ID } from '../protocol/constants.js';
import * as v08Reader from '../versions/v0-8/v08-reader.js';
import { v08ReaderModule } from '../versions/v0-8/v08-reader-module.js';
import {
  basicValidatorModule,
  minimalValidatorModule,
  v08ValidatorModule,
  v10BasicValidatorModule,
} from './builtin-validator-modules.js';
import type { CatalogValidator, PrecompiledCatalogModule } from './catalog-validator.js';
import { familyDocumentsModule } from './family-documents.js';
import * as familySchemasModule from './family-schemas.js';
import * as basicModule from './generated/basic.js';
import * as minimalModule from './generated/minimal.js';
import * as v08Module from './generated/v0-8.js';
import * as v10BasicModule from './generated/v1-0-basic.js';
import { precompiledValidatorOf } from './lazy-catalog-validator.js';
import type { LazyModule } from './lazy-module.js';

/**
 * Catalog validators by catalog id. A client holds one per catalog it can render (digest §10.1);
 * `validateServerMessage` picks one by `createSurface.catalogId` or the surface's catalog.
 *
 * @example
 * ```ts
 * const registry = createValidatorRegistry();
 * registry.register(compileCatalogValidator(myCatalog));
 * registry.get(myCatalog.catalogId)?.checkComponent(component);
 * ```
 */
export interface ValidatorRegistry {
  /** The validator for `catalogId`, or `undefined` when none is registered. */
  get(catalogId: string): CatalogValidator | undefined;
  /** True when a validator for `catalogId` is registered. */
  has(catalogId: string): boolean;
  /** Adds a validator under its `catalogId`, replacing any earlier one with the same id. */
  register(validator: CatalogValidator): void;
  /** Registered catalog ids, in registration order. */
  catalogIds(): string[];
}

/** Options of {@link createValidatorRegistry}. */
export interface ValidatorRegistryOptions {
  /**
   * Pre-register the built-in basic and minimal catalog validators.
   * @default true
   */
  builtins?: boolean;
}

/** `module`'s validator, after handing the module to the lazy slot that would import it. */
function providedValidator(
  slot: LazyModule<PrecompiledCatalogModule>,
  module: PrecompiledCatalogModule,
): CatalogValidator {
  slot.provide(module);
  // Used statically, it words its failures synchronously too.
  familyDocumentsModule.provide(familySchemasModule);
  return precompiledValidatorOf(module);
}

/**
 * True once the built-in validator modules (with the `regex` engine and the v0.8 reader) have been handed over statically. This module imports
 * them all: evaluating it (Node does when `@a2ui-ts/core` is imported) makes every built-in
 * validator synchronous from the start. A bundler drops it from a page that uses none of its
 * exports, and the page imports each validator chunk on first need instead (`loadValidators`).
 */
export const builtinValidatorsProvided: boolean = /* @__PURE__ */ (() => {
  v08ValidatorModule.provide(v08Module);
  v08ReaderModule.provide(v08Reader);
  minimalValidatorModule.provide(minimalModule);
  v10BasicValidatorModule.provide(v10BasicModule);
  basicValidatorModule.provide(basicModule);
  familyDocumentsModule.provide(familySchemasModule);
  // Not a validator, but loaded on first need the same way (the `regex` function's engine).
  regexEngineModule.provide(re2js);
  return true;
})();

/** Validator of the v0.9 basic catalog (18 components, 14 functions; digest §9), precompiled. */
export const basicCatalogValidator: CatalogValidator = /* @__PURE__ */ providedValidator(
  basicValidatorModule,
  basicModule,
);

/** Validator of the v0.9 minimal catalog (digest §10.4), precompiled. */
export const minimalCatalogValidator: CatalogValidator = /* @__PURE__ */ providedValidator(
  minimalValidatorModule,
  minimalModule,
);

/**
 * Validator of the v1.0 basic catalog (`specification/v1_0/catalogs/basic/catalog.json`),
 * precompiled against v1.0 `common_types.json` and `agent_to_renderer.json`: each component is
 * judged as inside a v1.0 message (`ComponentCommon`, no unevaluated properties).
 */
export const v10BasicCatalogValidator: CatalogValidator = /* @__PURE__ */ providedValidator(
  v10BasicValidatorModule,
  v10BasicModule,
);

/**
 * The precompiled validator of a built-in v0.9 catalog.
 *
 * @param catalogId - `BASIC_CATALOG_ID` or `MINIMAL_CATALOG_ID`.
 * @returns Its validator, or `undefined` for any other id.
 *
 * @example
 * ```ts
 * getBuiltinCatalogValidator(BASIC_CATALOG_ID)?.hasComponent('Slider'); // true
 * ```
 */
export function getBuiltinCatalogValidator(catalogId: string): CatalogValidator | undefined {
  if (catalogId === BASIC_CATALOG_ID) return basicCatalogValidator;
  if (catalogId === MINIMAL_CATALOG_ID) return minimalCatalogValidator;
  return undefined;
}

/**
 * Creates a registry of catalog validators.
 *
 * @param options - See {@link ValidatorRegistryOptions}.
 * @returns A registry holding the basic and minimal catalogs unless `builtins: false`.
 *
 * @example
 * ```ts
 * const registry = createValidatorRegistry({ builtins: false });
 * registry.register(basicCatalogValidator);
 * ```
 */
export function createValidatorRegistry(options: ValidatorRegistryOptions = {}): ValidatorRegistry {
  const validators = new Map<string, CatalogValidator>();
  const registry: ValidatorRegistry = {
    get: (catalogId) => validators.get(catalogId),
    has: (catalogId) => validators.has(catalogId),
    register(validator) {
      validators.set(validator.catalogId, validator);
    },
    catalogIds: () => [...validators.keys()],
  };
  if (options.builtins ?? true) {
    registry.register(basicCatalogValidator);
    registry.register(minimalCatalogValidator);
  }
  return registry;
}

/**
 * The registry used when a validation function gets no `registry` option. It is shared
 * process-wide: register custom catalogs here only in application code, and prefer your own
 * registry in libraries.
 */
export const defaultValidatorRegistry: ValidatorRegistry =
  /* @__PURE__ */ createValidatorRegistry();
