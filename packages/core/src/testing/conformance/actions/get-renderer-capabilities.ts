/**
 * `get_renderer_capabilities`: not built yet; catalogs-rpc implements it in this file.
 */
import { type ConformanceActionHandler, notImplemented } from '../conformance-action.js';

/** The `get_renderer_capabilities` handler. */
export const getRendererCapabilities: ConformanceActionHandler = notImplemented(
  'get_renderer_capabilities',
  'issue 19, catalogs-rpc (renderer capabilities)',
);
