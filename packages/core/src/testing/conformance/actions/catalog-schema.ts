/**
 * `catalog_schema`: not built yet; catalogs-rpc implements it in this file.
 */
import { type ConformanceActionHandler, notImplemented } from '../conformance-action.js';

/** The `catalog_schema` handler. */
export const catalogSchema: ConformanceActionHandler = notImplemented(
  'catalog_schema',
  'issue 19, catalogs-rpc (catalog definitions)',
);
