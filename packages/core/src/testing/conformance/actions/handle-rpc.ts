/**
 * `handle_rpc`: not built yet; catalogs-rpc implements it in this file.
 */
import { type ConformanceActionHandler, notImplemented } from '../conformance-action.js';

/** The `handle_rpc` handler. */
export const handleRpc: ConformanceActionHandler = notImplemented(
  'handle_rpc',
  'issue 19, catalogs-rpc (v1.0 function calls)',
);
