/**
 * `get_renderer_capabilities`: the case's catalogs (catalog documents) described by
 * `rendererCapabilities` for `args.version`, inline catalogs when `args.includeInlineCatalogs`,
 * compared with `expect` by the suite's subset rule.
 */
import { rendererCapabilities } from '../../../catalog/renderer-capabilities.js';
import type { ConformanceActionHandler } from '../conformance-action.js';
import { checkCatalogResult } from './from-json.js';

/** The `get_renderer_capabilities` handler. */
export const getRendererCapabilities: ConformanceActionHandler = ({ testCase, version }) => {
  const args = testCase.args ?? {};
  return checkCatalogResult(testCase, () =>
    rendererCapabilities(
      (testCase.catalogs ?? []).map((catalog) => ({
        catalogId: String(catalog.catalogId),
        ...(catalog.protocolVersion === undefined
          ? {}
          : { protocolVersion: catalog.protocolVersion }),
        schema: catalog,
      })),
      {
        version: typeof args.version === 'string' ? args.version : version,
        includeInlineCatalogs: args.includeInlineCatalogs === true,
      },
    ),
  );
};
