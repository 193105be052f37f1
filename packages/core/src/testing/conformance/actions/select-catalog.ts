/**
 * `select_catalog`: the catalog the processor's resolution rule (`state/select-catalog.ts`: own
 * `catalogId`, else the surface default, never another catalog; one protocol version per surface)
 * picks for each of the case's components and its function call; the last pick is compared with
 * `expectSelected`, an error with `expectError`.
 */
import { type Catalog, createCatalog } from '../../../catalog/catalog.js';
import { isRecord } from '../../../protocol/guards.js';
import { checkCatalogVersion, selectCatalog as select } from '../../../state/select-catalog.js';
import type { ConformanceActionHandler } from '../conformance-action.js';
import { checkCatalogResult } from './from-json.js';

/** The `select_catalog` handler. */
export const selectCatalog: ConformanceActionHandler = ({ testCase, version }) => {
  const args = testCase.args ?? {};
  const surface = isRecord(args.surface) ? args.surface : {};
  const surfaceId = String(surface.id ?? '');
  const defaultCatalogId =
    typeof surface.defaultCatalogId === 'string' ? surface.defaultCatalogId : undefined;
  const versions = isRecord(args.catalogs) ? args.catalogs : {};
  const supported = new Map<string, Catalog>();
  for (const id of Array.isArray(surface.supportedCatalogIds) ? surface.supportedCatalogIds : []) {
    const declared = isRecord(versions[id]) ? versions[id].protocolVersion : undefined;
    supported.set(
      String(id),
      createCatalog({
        catalogId: String(id),
        protocolVersion: typeof declared === 'string' ? declared : version,
      }),
    );
  }
  const items = [
    ...Object.entries(isRecord(args.components) ? args.components : {}).map(
      ([id, component]) => [`Component '${id}'`, component] as const,
    ),
    ...(isRecord(args.functionCall)
      ? [[`Function '${args.functionCall.call}'`, args.functionCall] as const]
      : []),
  ];
  return checkCatalogResult(
    testCase,
    () => {
      for (const catalog of supported.values()) checkCatalogVersion(catalog, version);
      let selected: string | undefined = defaultCatalogId;
      for (const [subject, item] of items) {
        const own =
          isRecord(item) && typeof item.catalogId === 'string' ? item.catalogId : undefined;
        selected = select({
          surfaceId,
          surfaceVersion: version,
          defaultCatalogId,
          catalogId: own,
          getCatalog: (id) => supported.get(id),
          subject,
        }).catalogId;
      }
      return selected;
    },
    (actual) =>
      actual === testCase.expectSelected
        ? undefined
        : `expected catalog ${JSON.stringify(testCase.expectSelected)}, got ${JSON.stringify(actual)}`,
  );
};
