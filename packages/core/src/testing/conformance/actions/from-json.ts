/**
 * `from_json`: not built yet; catalogs-rpc implements it in this file.
 */
import { type ConformanceActionHandler, notImplemented } from '../conformance-action.js';

/** The `from_json` handler. */
export const fromJson: ConformanceActionHandler = notImplemented(
  'from_json',
  'issue 19, catalogs-rpc (catalog definitions)',
);
