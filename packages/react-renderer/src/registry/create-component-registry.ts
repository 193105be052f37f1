/**
 * The registry most renderers use: the built-in basic and minimal catalog components. Kept apart
 * from {@link ComponentRegistry} so the class (which renderer contexts name) does not import
 * the components (which render through those contexts).
 */
import {
  BASIC_CATALOG_ID,
  MINIMAL_CATALOG_ID,
  V1_0_BASIC_CATALOG_ID,
  V08_STANDARD_CATALOG_ID,
} from '@a2ui-ts/core';
import { BASIC_COMPONENTS, MINIMAL_COMPONENTS } from '../components/basic-components.js';
import { ComponentRegistry } from './component-registry.js';

/** Options of {@link createComponentRegistry}. */
export interface CreateComponentRegistryOptions {
  /**
   * Register the 18 built-in components for the basic catalog (v0.9 and v1.0: one implementation
   * reads both, see `Text`, `TextField`, `Video`, `Slider`; v0.8's standard catalog too, whose
   * components core's v0.8 reader upgrades to the v0.9 basic ones) and its 5 for the minimal
   * catalog.
   * @default true
   */
  builtins?: boolean;
}

/**
 * A new registry, holding the built-in basic and minimal catalog components unless told not to.
 *
 * @example
 * ```ts
 * const registry = createComponentRegistry().registerAll(MY_CATALOG_ID, { ...BASIC_COMPONENTS, Chart });
 * ```
 */
export function createComponentRegistry(
  options: CreateComponentRegistryOptions = {},
): ComponentRegistry {
  const registry = new ComponentRegistry();
  if (options.builtins ?? true) {
    registry.registerAll(
      [BASIC_CATALOG_ID, V1_0_BASIC_CATALOG_ID, V08_STANDARD_CATALOG_ID],
      BASIC_COMPONENTS,
    );
    registry.registerAll(MINIMAL_CATALOG_ID, MINIMAL_COMPONENTS);
  }
  return registry;
}
