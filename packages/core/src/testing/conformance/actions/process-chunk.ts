/**
 * `process_chunk`: not built yet; stream-parser implements it in this file.
 */
import { type ConformanceActionHandler, notImplemented } from '../conformance-action.js';

/** The `process_chunk` handler. */
export const processChunk: ConformanceActionHandler = notImplemented(
  'process_chunk',
  'issue 19, stream-parser (streaming parser)',
);
