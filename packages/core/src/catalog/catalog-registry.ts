/**
 * The catalogs a client can render, and the `a2uiClientCapabilities` generated from them (§4.1).
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { isRecord } from '../protocol/guards.js';
import type {
  ClientCapabilities,
  FunctionDefinition,
  FunctionReturnType,
  InlineCatalog,
} from '../protocol/messages.js';
import { catalogVersionFamily } from '../state/select-catalog.js';
import type { Catalog } from './catalog.js';

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
    // Only catalogs written for v0.9 belong under the "v0.9" key (catalogs of v1.0 are listed
    // under v1.0's `a2uiRendererCapabilities`).
    const v09 = [...this.#catalogs.values()].filter(
      (catalog) => catalogVersionFamily(catalog.protocolVersion) === 'v0.9',
    );
    const inner: ClientCapabilities['v0.9'] = {
      supportedCatalogIds: v09.map((catalog) => catalog.catalogId),
    };
    if (options.includeInlineCatalogs) {
      inner.inlineCatalogs = v09
        .filter((catalog) => catalog.schema !== undefined)
        .map((catalog) => toInlineCatalog(catalog.catalogId, catalog.schema!));
    }
    return { 'v0.9': inner };
  }
}

const RETURN_TYPES = new Set<FunctionReturnType>([
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'any',
  'void',
]);

/**
 * Converts a catalog JSON Schema document (the `catalog.json` file format, §10.2) into the inline
 * `Catalog` wire shape of `client_capabilities.json` (§4.1): `functions` become an array of
 * `FunctionDefinition`s whose `parameters` are the schemas of their `args`.
 */
export function toInlineCatalog(catalogId: string, schema: Record<string, unknown>): InlineCatalog {
  const inline: InlineCatalog = { catalogId };
  if (isRecord(schema.components)) inline.components = schema.components;
  if (isRecord(schema.functions)) {
    inline.functions = Object.entries(schema.functions).map(
      ([name, definition]): FunctionDefinition => {
        const fn = isRecord(definition) ? definition : {};
        const properties = isRecord(fn.properties) ? fn.properties : {};
        const returnConst = isRecord(properties.returnType)
          ? properties.returnType.const
          : undefined;
        const returnType = RETURN_TYPES.has(returnConst as FunctionReturnType)
          ? (returnConst as FunctionReturnType)
          : 'any';
        const out: FunctionDefinition = {
          name,
          parameters: isRecord(properties.args) ? properties.args : { type: 'object' },
          returnType,
        };
        if (typeof fn.description === 'string') out.description = fn.description;
        return out;
      },
    );
  }
  const defs = isRecord(schema.$defs) ? schema.$defs : {};
  if (isRecord(defs.theme) && isRecord(defs.theme.properties)) inline.theme = defs.theme.properties;
  return inline;
}
