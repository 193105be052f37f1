/**
 * Renderer capabilities: which catalogs a renderer supports, keyed by protocol version
 * (v0.9 `a2uiClientCapabilities`, v1.0 `a2uiRendererCapabilities`; `a2ui_protocol.md`
 * "Capabilities and metadata"; conformance `get_renderer_capabilities`).
 */
import { isRecord } from '../protocol/guards.js';
import type { InlineCatalog } from '../protocol/messages.js';
import { normalizeProtocolVersion } from './catalog-definition.js';
import { toInlineCatalog } from './inline-catalog.js';
import type { JsonSchema } from './inline-schema-refs.js';

/** The capabilities of one protocol version. */
export interface VersionCapabilities {
  supportedCatalogIds: string[];
  /**
   * Full definitions: v0.9 inline catalogs (`client_capabilities.json#/$defs/Catalog`), v1.0
   * catalog definitions (`catalog_definition.json`).
   */
  inlineCatalogs?: Array<InlineCatalog | JsonSchema>;
}

/** Capabilities keyed by protocol version (`"v0.9"`, `"v1.0"`); a missing key = not supported. */
export type VersionedCapabilities = Record<string, VersionCapabilities>;

/** What {@link rendererCapabilities} needs of a catalog. */
export interface CapabilityCatalog {
  readonly catalogId: string;
  /**
   * The version the catalog is written for.
   * @default the schema's `protocolVersion`, else `"v0.9"`
   */
  readonly protocolVersion?: string;
  /** The catalog document; only catalogs with one can be sent inline. */
  readonly schema?: Record<string, unknown>;
}

/** Options of {@link rendererCapabilities}. */
export interface RendererCapabilitiesOptions {
  /** The version to describe (`"v0.8"`, `"v0.9"`, `"v0.9.1"`, `"v1.0"`, `"1.0"`). @default "v0.9" */
  version?: string;
  /**
   * Include full definitions of catalogs that have a schema (only for agents that declared
   * `acceptsInlineCatalogs`).
   * @default false
   */
  includeInlineCatalogs?: boolean;
}

/** `v0.9.1` shares v0.9's catalogs: versions match on major.minor. */
const family = (version: string): string =>
  normalizeProtocolVersion(version).split('.').slice(0, 2).join('.');

/**
 * The version a catalog is written for, `v`-prefixed: its own `protocolVersion`, else its
 * schema's, else `"v0.9"` (the `catalog_definition.json` default).
 */
export function catalogProtocolVersion(catalog: CapabilityCatalog): string {
  const declared = catalog.protocolVersion ?? catalog.schema?.protocolVersion;
  return normalizeProtocolVersion(typeof declared === 'string' ? declared : 'v0.9');
}

/** A v1.0 inline catalog: the catalog definition itself, without the JSON Schema bookkeeping. */
function toV1InlineCatalog(catalogId: string, schema: Record<string, unknown>): JsonSchema {
  const out: JsonSchema = { catalogId };
  for (const key of ['protocolVersion', 'title', 'description', 'instructions'] as const)
    if (typeof schema[key] === 'string') out[key] = schema[key];
  for (const key of ['components', 'functions', '$defs'] as const)
    if (isRecord(schema[key])) out[key] = schema[key];
  return out;
}

/**
 * The capabilities object for one version: `{[version]: {supportedCatalogIds, inlineCatalogs?}}`
 * over the catalogs written for that version (v0.9 and v0.9.1 share catalogs), in the given
 * order (the preference order). Inline catalogs take the version's shape: v0.9 components wrapped
 * with the common component schema and functions as `{name, returnType, parameters}`; v1.0 the
 * catalog definition.
 *
 * @param catalogs - The renderer's catalogs, in preference order.
 * @param options - See {@link RendererCapabilitiesOptions}.
 * @returns A new object with the one version key.
 * @throws A2uiError `CATALOG_ERROR` when `version` or a catalog's `protocolVersion` is not a version
 *
 * @example
 * ```ts
 * rendererCapabilities([{ catalogId: 'cat-v10', protocolVersion: 'v1.0' }], { version: 'v1.0' });
 * // { 'v1.0': { supportedCatalogIds: ['cat-v10'] } }
 * ```
 */
export function rendererCapabilities(
  catalogs: Iterable<CapabilityCatalog>,
  options: RendererCapabilitiesOptions = {},
): VersionedCapabilities {
  const version = normalizeProtocolVersion(options.version ?? 'v0.9');
  const wanted = family(version);
  const matching = [...catalogs].filter(
    (catalog) => family(catalogProtocolVersion(catalog)) === wanted,
  );
  const inner: VersionCapabilities = {
    supportedCatalogIds: matching.map((catalog) => catalog.catalogId),
  };
  if (options.includeInlineCatalogs) {
    const v1 = Number(version.slice(1).split('.')[0]) >= 1;
    inner.inlineCatalogs = matching
      .filter((catalog) => catalog.schema !== undefined)
      .map((catalog) =>
        v1
          ? toV1InlineCatalog(catalog.catalogId, catalog.schema!)
          : toInlineCatalog(catalog.catalogId, catalog.schema!),
      );
  }
  return { [version]: inner };
}
