/**
 * The handler of each action the runner executes, one file per action under `actions/`. An
 * action the suite names but that is missing here fails its cases (never skipped).
 */
import { accessibilityCheck } from './actions/accessibility-check.js';
import { catalogSchema } from './actions/catalog-schema.js';
import { fromJson } from './actions/from-json.js';
import { getRendererCapabilities } from './actions/get-renderer-capabilities.js';
import { getRendererDataModel } from './actions/get-renderer-data-model.js';
import { handleRpc } from './actions/handle-rpc.js';
import { processChunk } from './actions/process-chunk.js';
import { processMessages } from './actions/process-messages.js';
import { resolvePath } from './actions/resolve-path.js';
import { selectCatalog } from './actions/select-catalog.js';
import { validate } from './actions/validate.js';
import type { ConformanceActionHandler } from './conformance-action.js';
import type { ConformanceAction } from './conformance-case.js';

/** Handlers by action. */
export const CONFORMANCE_ACTION_HANDLERS: Readonly<
  Partial<Record<ConformanceAction, ConformanceActionHandler>>
> = {
  accessibility_check: accessibilityCheck,
  catalog_schema: catalogSchema,
  from_json: fromJson,
  get_renderer_capabilities: getRendererCapabilities,
  get_renderer_data_model: getRendererDataModel,
  handle_rpc: handleRpc,
  process_chunk: processChunk,
  process_messages: processMessages,
  resolve_path: resolvePath,
  select_catalog: selectCatalog,
  validate,
};
