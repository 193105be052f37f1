/**
 * `@a2ui-ts/agui-adapter` — serves A2UI v0.9 agents to AG-UI frontends (`createAgUiServer`: the
 * AG-UI `POST` endpoint, in `state`, `activity` or `tool-result` mode, with frontend tools), and
 * renders any AG-UI agent's A2UI (`connectAgUi`: a `ClientTransport` on `@ag-ui/client`'s
 * `HttpAgent`).
 *
 * @module
 */

export type { AgUiFrontendTool, AgUiTransport, ConnectAgUiOptions } from './client/connect-agui.js';
export { AGUI_CLIENT_DEFAULTS, connectAgUi } from './client/connect-agui.js';
export type { GuardRunFetchOptions } from './client/guard-run-fetch.js';
export { guardRunFetch, RunCutError } from './client/guard-run-fetch.js';
export {
  A2UI_ACTIVITY_TYPE,
  A2UI_OPERATIONS_KEY,
  activityMessageId,
  CUSTOM_EVENTS,
  FORWARDED_PROPS,
  LOG_A2UI_EVENT_TOOL,
  PROTOBUF_MEDIA_TYPE,
  STATE_SEQ_KEY,
  STATE_SURFACES_KEY,
  SURFACE_TOOL_NAME,
} from './protocol/constants.js';
export type {
  AppliedMessage,
  PatchOperation,
  SurfaceState,
  SurfacesState,
} from './protocol/surface-state.js';
export {
  applyServerMessage,
  sameSurfaces,
  surfaceMessages,
} from './protocol/surface-state.js';
export type {
  AgUiCorsOptions,
  AgUiServer,
  AgUiServerOptions,
  AgUiServerStats,
} from './server/create-agui-server.js';
export { AGUI_SERVER_DEFAULTS, createAgUiServer } from './server/create-agui-server.js';
export { parseRunAgentInput, toAction } from './server/run-input.js';
export type { AgUiOutputMode } from './server/surface-emitter.js';
