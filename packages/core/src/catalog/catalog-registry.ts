/**
 * The catalogs a client can render, and the `a2uiClientCapabilities` generated from them (§4.1).
 */
import { A2uiError } from '../errors/a2ui-error.js';
import type { ClientCapabilities } from '../protocol/messages.js';
import type { Catalog } from './catalog.js';
import {
  catalogProtocolVersion,
  rendererCapabilities,
  type VersionedCapabilities,
} from './renderer-capabilities.js';

/** Options of {@link CatalogRegistry.getClientCapabilities}. */
export interface ClientCapabilitiesOptions {
  /**
   * Include full definitions of catalogs that have a `schema` (only when the server declared
   * `acceptsInlineCatalogs`, §4.1).
   * @default false
   */
  includeInlineCatalogs?: boolean;
}

/** Ordered set of catalogs; the order is the preference order sent to agents. */
export class CatalogRegistry {
  readonly #catalogs = new Map<string, Catalog>();

  constructor(catalogs: Iterable<Catalog> = []) {
    for (const catalog of catalogs) this.register(catalog);
  }

  /** Adds or replaces a catalog (replacing keeps its place in the preference order). */
  register(catalog: Catalog): this {
    this.#catalogs.set(catalog.catalogId, catalog);
    return this;
  }

  get(catalogId: string): Catalog | undefined {
    return this.#catalogs.get(catalogId);
  }

  /** @throws A2uiError `CATALOG_NOT_FOUND` */
  require(catalogId: string): Catalog {
    const catalog = this.#catalogs.get(catalogId);
    if (!catalog) {
      throw new A2uiError(
        'CATALOG_NOT_FOUND',
        `Catalog not found: ${catalogId}. Supported: ${[...this.#catalogs.keys()].join(', ')}.`,
      );
    }
    return catalog;
  }

  has(catalogId: string): boolean {
    return this.#catalogs.has(catalogId);
  }

  /** The registered catalog ids in preference order. */
  get catalogIds(): string[] {
    return [...this.#catalogs.keys()];
  }

  values(): IterableIterator<Catalog> {
    return this.#catalogs.values();
  }

  /**
   * `a2uiClientCapabilities` for the registered catalogs:
   * `{"v0.9": {supportedCatalogIds, inlineCatalogs?}}` (§4.1).
   */
  getClientCapabilities(options: ClientCapabilitiesOptions = {}): ClientCapabilities {
    const capabilities = rendererCapabilities(this.#catalogs.values(), {
      version: 'v0.9',
      includeInlineCatalogs: options.includeInlineCatalogs,
    });
    return capabilities as unknown as ClientCapabilities;
  }

  /**
   * The capabilities of every version the registered catalogs are written for, keyed by version
   * (`{"v0.9": {…}, "v1.0": {…}}`), each listing only that version's catalogs. `v0.9` is always
   * present (its schema requires the key), even when empty.
   */
  getRendererCapabilities(options: ClientCapabilitiesOptions = {}): VersionedCapabilities {
    const versions = new Set(['v0.9']);
    for (const catalog of this.#catalogs.values()) {
      const version = catalogProtocolVersion(catalog);
      // v0.9.1 catalogs are v0.9 catalogs (its capabilities schema keys them "v0.9").
      versions.add(version === 'v0.9.1' ? 'v0.9' : version);
    }
    const out: VersionedCapabilities = {};
    for (const version of versions)
      Object.assign(
        out,
        rendererCapabilities(this.#catalogs.values(), {
          version,
          includeInlineCatalogs: options.includeInlineCatalogs,
        }),
      );
    return out;
  }
}
