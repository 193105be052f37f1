/**
 * `select_catalog`: not built yet; catalogs-rpc implements it in this file.
 */
import { type ConformanceActionHandler, notImplemented } from '../conformance-action.js';

/** The `select_catalog` handler. */
export const selectCatalog: ConformanceActionHandler = notImplemented(
  'select_catalog',
  'issue 19, catalogs-rpc (catalog selection)',
);
