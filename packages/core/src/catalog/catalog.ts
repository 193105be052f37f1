/**
 * Catalogs (digest §10): the component types and functions a surface may use.
 */
import type { FunctionImplementation } from '../functions/function-types.js';
import type { CatalogValidator } from '../validation/index.js';
import { normalizeProtocolVersion } from './catalog-definition.js';

/**
 * A catalog known to the client.
 *
 * - `components`: the component type names it renders.
 * - `functions`: implementations of its functions, by name.
 * - `validator`: schema validation of messages using it; without one, only the message envelope
 *   is validated and every component type in `components` is accepted as is.
 * - `schema`: the catalog's JSON Schema document, sent as an inline catalog when asked (§4.1).
 */
export interface Catalog {
  readonly catalogId: string;
  readonly components: ReadonlySet<string>;
  readonly functions: ReadonlyMap<string, FunctionImplementation>;
  readonly validator: CatalogValidator | undefined;
  readonly schema: Record<string, unknown> | undefined;
  /**
   * The A2UI protocol version the catalog is written for (v1.0 `catalog_definition.json`
   * `protocolVersion`, normalised to the `"v1.0"` form). All catalogs of one surface share it.
   * `undefined` means v0.9 (the spec's default for catalogs without one).
   */
  readonly protocolVersion: string | undefined;
}

/** Options of {@link createCatalog}. */
export interface CreateCatalogOptions {
  catalogId: string;
  /** Component type names; @default the keys of `schema.components` */
  components?: Iterable<string>;
  /** @default [] */
  functions?: Iterable<FunctionImplementation>;
  validator?: CatalogValidator;
  schema?: Record<string, unknown>;
  /**
   * The version the catalog is written for (`"1.0"` is stored as `"v1.0"`).
   * @default the schema's `protocolVersion`, else undefined (v0.9)
   */
  protocolVersion?: string;
}

/**
 * Builds a {@link Catalog}.
 *
 * @throws A2uiError `CATALOG_ERROR` when the protocol version is not a version (`"v1.0"`, `"1.0"`, …)
 *
 * @example
 * ```ts
 * const charts = createCatalog({ catalogId: 'https://example.com/charts/v1', components: ['PieChart'] });
 * ```
 */
export function createCatalog(options: CreateCatalogOptions): Catalog {
  const fromSchema = options.schema?.components;
  const components = new Set(
    options.components ??
      (fromSchema && typeof fromSchema === 'object' ? Object.keys(fromSchema as object) : []),
  );
  const functions = new Map<string, FunctionImplementation>();
  for (const fn of options.functions ?? []) functions.set(fn.name, fn);
  const fromDocument = options.schema?.protocolVersion;
  const declared =
    options.protocolVersion ?? (typeof fromDocument === 'string' ? fromDocument : undefined);
  return {
    catalogId: options.catalogId,
    components,
    functions,
    validator: options.validator,
    schema: options.schema,
    protocolVersion: declared === undefined ? undefined : normalizeProtocolVersion(declared),
  };
}

/**
 * Extends `base` with more components and functions under a new `catalogId` (or the same one, to
 * override implementations).
 */
export function extendCatalog(
  base: Catalog,
  extension: Partial<CreateCatalogOptions> & { catalogId?: string },
): Catalog {
  return createCatalog({
    catalogId: extension.catalogId ?? base.catalogId,
    components: [...base.components, ...(extension.components ?? [])],
    functions: [...base.functions.values(), ...(extension.functions ?? [])],
    validator: extension.validator ?? base.validator,
    schema: extension.schema ?? base.schema,
    protocolVersion: extension.protocolVersion ?? base.protocolVersion,
  });
}
