/**
 * Which catalog a v1.0 component or function call uses (`a2ui_protocol.md` "Mixable catalogs";
 * conformance `core/multi_catalog.yaml`): (1) its own `catalogId`, (2) the surface's default
 * `catalogId`, (3) otherwise an error — never a fallback to some other advertised catalog. Every
 * catalog of one surface speaks the surface's protocol version.
 */
import type { Catalog } from '../catalog/catalog.js';
import { A2uiError } from '../errors/a2ui-error.js';

/** Options of {@link selectCatalog}. */
export interface SelectCatalogOptions {
  readonly surfaceId: string;
  /** The surface's protocol version family, `"v1.0"`. */
  readonly surfaceVersion: string;
  /** The surface's default catalog id (`createSurface.catalogId`), if any. */
  readonly defaultCatalogId: string | undefined;
  /** The component's or function call's own `catalogId`, if any. */
  readonly catalogId: string | undefined;
  /** The catalogs the renderer supports, by id. */
  readonly getCatalog: (catalogId: string) => Catalog | undefined;
  /** What the error names: `Component 'c1'`, `Function 'add'`. @default "It" */
  readonly subject?: string;
}

/** Most spellings {@link catalogVersionFamily} remembers: far more than a process uses. */
const FAMILY_CACHE_SIZE = 64;
const familyCache = new Map<string, string>();

/**
 * The protocol version family a catalog's `protocolVersion` names: `"1.0"` and `"v1.0"` are
 * `"v1.0"`; `"0.9"`, `"v0.9.1"` and no value (the spec's default) are `"v0.9"`.
 *
 * @example
 * ```ts
 * catalogVersionFamily('1.0'); // "v1.0"
 * ```
 */
export function catalogVersionFamily(protocolVersion: string | undefined): string {
  if (protocolVersion === undefined) return 'v0.9';
  let family = familyCache.get(protocolVersion);
  if (family === undefined) {
    const bare = protocolVersion.startsWith('v') ? protocolVersion.slice(1) : protocolVersion;
    const [major = '', minor = '0'] = bare.split('.');
    family = `v${major}.${minor}`;
    // Remembered for the few spellings catalogs and versions use (every surface asks twice).
    if (familyCache.size >= FAMILY_CACHE_SIZE) familyCache.clear();
    familyCache.set(protocolVersion, family);
  }
  return family;
}

/**
 * Checks that `catalog` may join a surface of version family `surfaceVersion`.
 * @throws A2uiError `CATALOG_VERSION_MISMATCH`
 */
export function checkCatalogVersion(catalog: Catalog, surfaceVersion: string): void {
  const family = catalogVersionFamily(catalog.protocolVersion);
  if (family === catalogVersionFamily(surfaceVersion)) return;
  throw new A2uiError(
    'CATALOG_VERSION_MISMATCH',
    `Protocol version mismatch: cannot mix catalog '${catalog.catalogId}' (${family}) with surface version ${surfaceVersion}.`,
  );
}

/**
 * The catalog a component or function call resolves to.
 *
 * @throws A2uiError `CATALOG_NOT_FOUND` when neither it nor the surface names a catalog, or the
 *   one named is not supported; `CATALOG_VERSION_MISMATCH` when that catalog is of another version
 *
 * @example
 * ```ts
 * selectCatalog({ surfaceId: 's', surfaceVersion: 'v1.0', defaultCatalogId: 'basic', catalogId: undefined, getCatalog: (id) => registry.get(id) });
 * ```
 */
export function selectCatalog(options: SelectCatalogOptions): Catalog {
  const catalogId = options.catalogId ?? options.defaultCatalogId;
  const subject = options.subject ?? 'It';
  if (catalogId === undefined) {
    throw new A2uiError(
      'CATALOG_NOT_FOUND',
      `${subject} names no catalogId and surface '${options.surfaceId}' has no default catalog.`,
      { surfaceId: options.surfaceId },
    );
  }
  const catalog = options.getCatalog(catalogId);
  if (!catalog) {
    throw new A2uiError(
      'CATALOG_NOT_FOUND',
      `Catalog '${catalogId}' is not supported by surface '${options.surfaceId}'.`,
      { surfaceId: options.surfaceId },
    );
  }
  checkCatalogVersion(catalog, options.surfaceVersion);
  return catalog;
}
