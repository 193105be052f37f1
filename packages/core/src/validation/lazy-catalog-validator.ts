/**
 * A catalog validator whose precompiled module loads on first need (see `LazyModule`).
 */
import {
  type CatalogValidator,
  createPrecompiledCatalogValidator,
  type PrecompiledCatalogModule,
} from './catalog-validator.js';
import type { LazyModule } from './lazy-module.js';

/** Options of {@link createLazyCatalogValidator}. */
export interface LazyCatalogValidatorOptions {
  /** The id messages name in `createSurface.catalogId`. */
  catalogId: string;
  /** The catalog's schema: its `components` and `functions` name what the validator knows before it loads. */
  schema: { readonly [keyword: string]: unknown };
  /** The precompiled module (`generateCatalogValidatorModule()` output) behind a dynamic import. */
  module: LazyModule<PrecompiledCatalogModule>;
}

const validators = new WeakMap<PrecompiledCatalogModule, CatalogValidator>();

/**
 * The validator of a precompiled module, built once per module (the eager export and the lazy
 * validator of one module share it).
 */
export function precompiledValidatorOf(module: PrecompiledCatalogModule): CatalogValidator {
  let validator = validators.get(module);
  if (!validator) {
    validator = createPrecompiledCatalogValidator(module);
    validators.set(module, validator);
  }
  return validator;
}

const namesOf = (section: unknown): readonly string[] =>
  section && typeof section === 'object' ? Object.freeze(Object.keys(section)) : [];

/**
 * A {@link CatalogValidator} that imports its precompiled module on first use. Until it has
 * loaded, `validateServerMessage`, `checkComponent` and `validateTheme` start the load and throw
 * `ModuleNotLoadedError` (`MODULE_NOT_LOADED`); `MessageProcessor` waits for it and applies the
 * message then. `catalogId`, `componentTypes`, `functionNames` and `hasComponent` answer at once.
 *
 * @param options - See {@link LazyCatalogValidatorOptions}.
 * @returns The validator, with `load()` to load it ahead of need.
 *
 * @example
 * ```ts
 * const validator = createLazyCatalogValidator({
 *   catalogId: charts.catalogId,
 *   schema: chartsSchema,
 *   module: new LazyModule('charts validator', () => import('./charts.validator.js')),
 * });
 * await validator.load?.();
 * ```
 */
export function createLazyCatalogValidator(options: LazyCatalogValidatorOptions): CatalogValidator {
  const { module } = options;
  const componentTypes = namesOf(options.schema.components);
  const components = new Set(componentTypes);
  let loaded: CatalogValidator | undefined;
  // One closure call on the hot path once loaded; `module.get()` throws (and loads) before.
  const inner = (): CatalogValidator => (loaded ??= precompiledValidatorOf(module.get()));
  return {
    catalogId: options.catalogId,
    componentTypes,
    functionNames: namesOf(options.schema.functions),
    get loaded() {
      return module.loaded;
    },
    load: () => module.load(),
    hasComponent: (type) => components.has(type),
    validateServerMessage: (message, validateOptions) =>
      inner().validateServerMessage(message, validateOptions),
    checkComponent: (component, validateOptions) =>
      inner().checkComponent(component, validateOptions),
    validateTheme: (theme) => inner().validateTheme(theme),
  };
}
