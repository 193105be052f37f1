/**
 * Which catalog a component or function call resolves through on a surface that mixes catalogs
 * (v1.0 `a2ui_protocol.md` "Mixable catalogs and component resolution logic"; conformance
 * `core/multi_catalog.yaml`).
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { normalizeProtocolVersion } from './catalog-definition.js';

/** The catalogs a surface may use. */
export interface CatalogSelectionSurface {
  readonly surfaceId: string;
  /** The surface's `createSurface.catalogId` (optional in v1.0). */
  readonly defaultCatalogId?: string;
  /**
   * Every catalog usable on the surface: the renderer's `supportedCatalogIds` plus the ids of the
   * inline catalogs the agent accepted.
   */
  readonly supportedCatalogIds: readonly string[];
}

/** A component instance or a `FunctionCall`: only its own `catalogId` matters here. */
export interface CatalogSelectionItem {
  readonly catalogId?: unknown;
}

/**
 * The catalog `item` resolves through: (1) its own `catalogId`, (2) else the surface's default;
 * never a fallback to another supported catalog (the spec forbids it, even with one catalog).
 *
 * @param surface - The surface's default and usable catalogs.
 * @param item - A component instance or function call.
 * @returns The catalog id.
 * @throws A2uiError `CATALOG_ERROR` when neither names a catalog, or the chosen catalog is not
 *   usable on the surface ("Catalog 'x' is not supported by surface 's'.")
 *
 * @example
 * ```ts
 * selectCatalog({ surfaceId: 's', defaultCatalogId: 'basic', supportedCatalogIds: ['basic', 'charts'] },
 *   { component: 'LineChart', catalogId: 'charts' }); // 'charts'
 * ```
 */
export function selectCatalog(
  surface: CatalogSelectionSurface,
  item: CatalogSelectionItem,
): string {
  const own = typeof item.catalogId === 'string' ? item.catalogId : undefined;
  const catalogId = own ?? surface.defaultCatalogId;
  if (catalogId === undefined) {
    throw new A2uiError(
      'CATALOG_ERROR',
      `No catalog to resolve through: the item has no catalogId and surface '${surface.surfaceId}' has no default catalog.`,
      { surfaceId: surface.surfaceId },
    );
  }
  if (!surface.supportedCatalogIds.includes(catalogId)) {
    throw new A2uiError(
      'CATALOG_ERROR',
      `Catalog '${catalogId}' is not supported by surface '${surface.surfaceId}'.`,
      { surfaceId: surface.surfaceId },
    );
  }
  return catalogId;
}

/**
 * Checks that every catalog of a surface is written for the surface's protocol version: all
 * catalogs used on one surface must share a version.
 *
 * @param surface - The surface (only its id is used, for the error).
 * @param surfaceVersion - The surface's version (`"v1.0"`, `"1.0"`, …).
 * @param catalogs - The protocol version of each usable catalog, by id.
 * @throws A2uiError `CATALOG_ERROR` "Protocol version mismatch: cannot mix catalog 'x' (v0.9)
 *   with surface version v1.0." for the first catalog of another version
 *
 * @example
 * ```ts
 * checkCatalogVersions(surface, 'v1.0', { basic: 'v1.0', legacy: 'v0.9' }); // throws
 * ```
 */
export function checkCatalogVersions(
  surface: Pick<CatalogSelectionSurface, 'surfaceId'>,
  surfaceVersion: string,
  catalogs: Readonly<Record<string, string>>,
): void {
  const expected = normalizeProtocolVersion(surfaceVersion);
  for (const [catalogId, version] of Object.entries(catalogs)) {
    const actual = normalizeProtocolVersion(version);
    if (actual !== expected) {
      throw new A2uiError(
        'CATALOG_ERROR',
        `Protocol version mismatch: cannot mix catalog '${catalogId}' (${actual}) with surface version ${expected}.`,
        { surfaceId: surface.surfaceId },
      );
    }
  }
}
