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
} from './protocol-version.js';
export { ProtocolVersionRegistry, unsupportedVersionMessage } from './protocol-version-registry.js';
export {
  createProtocolVersions,
  defaultProtocolVersions,
  getProtocolVersion,
  registerProtocolVersion,
} from './protocol-versions.js';
export { BodyReader } from './read-body.js';
export type { ReadEnvelopeOptions } from './read-envelope.js';
export { readEnvelope, readSurfaceId, specError } from './read-envelope.js';
export {
  encodeV09Action,
  encodeV09Error,
  V0_9_AGENT_MESSAGE_KINDS,
  V0_9_MULTIPLE_KINDS_MESSAGE,
  v09,
  v09ToInternal,
} from './v0-9.js';
export { V0_9_1_BASIC_CATALOG_ID, v091 } from './v0-9-1.js';
export {
  encodeV10Action,
  encodeV10Error,
  SURFACE_COMPONENT_TYPE,
  V1_0_AGENT_MESSAGE_KINDS,
  V1_0_RENDERER_MESSAGE_KINDS,
  v10,
  v10ToInternal,
} from './v1-0.js';
export { V1_0_BASIC_CATALOG_ID, v10BuiltinCatalogs } from './v1-0-catalogs.js';
export {
  V1_0_AT_ESCAPE,
  V1_0_ENVELOPE_VERSIONS,
  V1_0_RESERVED_KEY_ALIASES,
  V1_0_WRITES_AT_KEYS,
} from './v1-0-spelling.js';
