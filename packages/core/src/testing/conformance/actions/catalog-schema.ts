/**
 * `catalog_schema`: the case's catalog read by `catalogFromJson` (as the case's `protocolVersion`)
 * and written back by `catalogSchema`, compared with `expect` by the suite's subset rule.
 */
import {
  catalogFromJson,
  catalogSchema as writeCatalogSchema,
} from '../../../catalog/catalog-definition.js';
import type { ConformanceActionHandler } from '../conformance-action.js';
import { checkCatalogResult } from './from-json.js';

/** The `catalog_schema` handler. */
export const catalogSchema: ConformanceActionHandler = ({ testCase }) =>
  checkCatalogResult(testCase, () =>
    writeCatalogSchema(
      catalogFromJson(
        testCase.catalog,
        testCase.protocolVersion === undefined ? {} : { protocolVersion: testCase.protocolVersion },
      ),
    ),
  );
