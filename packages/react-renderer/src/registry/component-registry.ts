/**
 * Which React component renders which A2UI component type, per catalog (digest §10.1: a surface's
 * catalog is fixed at `createSurface`, and several catalogs may be live at once).
 */
import type { A2uiComponent } from './a2ui-component.js';

/** Catalog id that matches every catalog, consulted after the surface's own catalog id. */
export const ANY_CATALOG = '*';

/**
 * Component implementations by catalog id and type name. Register before rendering: the
 * renderer reads the registry while rendering and does not watch it for changes.
 *
 * @example
 * ```tsx
 * const registry = createComponentRegistry()
 *   .register('https://example.com/charts/v1', 'PieChart', PieChart)
 *   .register(BASIC_CATALOG_ID, 'Text', BrandedText); // overrides the built-in Text
 * <A2UIRenderer client={client} registry={registry} />;
 * ```
 */
export class ComponentRegistry {
  readonly #catalogs = new Map<string, Map<string, A2uiComponent>>();

  /**
   * Registers `component` for `type` in one or more catalogs; a later registration replaces an
   * earlier one (that is how a built-in component is overridden).
   *
   * @param catalogId - a catalog id, several, or {@link ANY_CATALOG}
   * @param type - the `component` name in messages, e.g. `"PieChart"`
   * @param component - the implementation; declare its resolved props with `A2uiComponentProps<P>`
   * @returns this registry, for chaining
   */
  register<P extends object>(
    catalogId: string | readonly string[],
    type: string,
    component: A2uiComponent<P>,
  ): this {
    for (const id of typeof catalogId === 'string' ? [catalogId] : catalogId) {
      let types = this.#catalogs.get(id);
      if (!types) {
        types = new Map();
        this.#catalogs.set(id, types);
      }
      types.set(type, component as A2uiComponent);
    }
    return this;
  }

  /** Registers every entry of `components` (type name → implementation) for `catalogId`. */
  registerAll(
    catalogId: string | readonly string[],
    components: Readonly<Record<string, A2uiComponent>>,
  ): this {
    for (const [type, component] of Object.entries(components))
      this.register(catalogId, type, component);
    return this;
  }

  /**
   * The implementation of `type` for a surface of catalog `catalogId`: that catalog's own
   * registration, else one under {@link ANY_CATALOG}, else `undefined`.
   */
  get(catalogId: string, type: string): A2uiComponent | undefined {
    return this.#catalogs.get(catalogId)?.get(type) ?? this.#catalogs.get(ANY_CATALOG)?.get(type);
  }

  /** The catalog ids with at least one registration. */
  get catalogIds(): readonly string[] {
    return [...this.#catalogs.keys()];
  }

  /** A copy that can be extended without touching this registry. */
  clone(): ComponentRegistry {
    const copy = new ComponentRegistry();
    for (const [catalogId, types] of this.#catalogs) {
      for (const [type, component] of types) copy.register(catalogId, type, component);
    }
    return copy;
  }
}
