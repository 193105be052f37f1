export {
  A2UI_A2A_EXTENSION_URI_PREFIX,
  A2UI_LEGACY_MIME_TYPE,
  A2UI_MIME_TYPE,
  A2UI_MIME_TYPES,
  isA2uiMimeType,
} from './mime-types.js';
export type {
  InternalAction,
  InternalAgentFunctionResponse,
  InternalCallRendererFunction,
  InternalCreateSurface,
  InternalDeleteSurface,
  InternalMessage,
  InternalMessageKind,
  InternalUpdateComponents,
  InternalUpdateDataModel,
  ProtocolVersion,
  ProtocolVersionMetadataKeys,
  ProtocolVersionReader,
} from './protocol-version.js';
export { ProtocolVersionRegistry, unsupportedVersionMessage } from './protocol-version-registry.js';
export {
  createProtocolVersions,
  defaultProtocolVersions,
  getProtocolVersion,
  registerProtocolVersion,
} from './protocol-versions.js';
export type {
  AnyServerMessage,
  V10CreateSurface,
  V10EnvelopeVersion,
  V10ServerMessage,
  V10UpdateDataModel,
  V091ServerMessage,
} from './server-messages.js';
export { v09 } from './v0-9.js';
export { V0_9_1_BASIC_CATALOG_ID, v091 } from './v0-9-1.js';
export { v10 } from './v1-0.js';
export { V1_0_BASIC_CATALOG_ID } from './v1-0-catalogs.js';
export {
  V1_0_AT_ESCAPE,
  V1_0_ENVELOPE_VERSIONS,
  V1_0_RESERVED_KEY_ALIASES,
  V1_0_WRITES_AT_KEYS,
} from './v1-0-spelling.js';
export {
  compareWireVersions,
  DEFAULT_A2UI_VERSIONS,
  MAX_OFFERED_VERSIONS,
  negotiateWireVersions,
  parseWireVersion,
  parseWireVersionList,
  resolveA2uiVersions,
  resolveOfferedVersions,
  versionsNotShared,
  type WireNegotiation,
  type WireVersion,
} from './wire-versions.js';
