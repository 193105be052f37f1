/**
 * A2UI v0.9 (`specification/v0_9`): the engine's native model. `MessageProcessor` applies these
 * messages directly (they are the internal model); `toInternal` is for tools that need the
 * version-neutral form, and for readers of older versions that upgrade to v0.9 first.
 */
import { basicCatalog, minimalCatalog } from '../catalog/default-catalogs.js';
import type { ClientError } from '../protocol/messages.js';
import { A2UI_A2A_EXTENSION_URI_PREFIX, A2UI_MIME_TYPES } from './mime-types.js';
import type { InternalAction, InternalMessage, ProtocolVersion } from './protocol-version.js';
import { BodyReader } from './read-body.js';
import { readEnvelope, readSurfaceId } from './read-envelope.js';

/** v0.9's agent→renderer message kinds (`server_to_client.json`). */
export const V0_9_AGENT_MESSAGE_KINDS: readonly string[] = Object.freeze([
  'createSurface',
  'updateComponents',
  'updateDataModel',
  'deleteSurface',
]);

/** The v0.9 wording of a message with several kinds (conformance `message_processor.yaml`). */
export const V0_9_MULTIPLE_KINDS_MESSAGE = 'Message contains multiple conflicting update actions';

/**
 * Maps a v0.9-shaped message (v0.9 or v0.9.1) onto the internal model.
 * @throws A2uiError `VALIDATION_FAILED`
 */
export function v09ToInternal(
  message: Readonly<Record<string, unknown>>,
  versionName: string,
): InternalMessage {
  const { kind, body } = readEnvelope(message, V0_9_AGENT_MESSAGE_KINDS, {
    versionName,
    multipleKindsMessage: V0_9_MULTIPLE_KINDS_MESSAGE,
  });
  const reader = new BodyReader(kind, body, readSurfaceId(body));
  const surfaceId = reader.requiredString('surfaceId');
  switch (kind) {
    case 'createSurface':
      reader.onlyKeys(['surfaceId', 'catalogId', 'theme', 'sendDataModel']);
      return {
        kind,
        surfaceId,
        catalogId: reader.requiredString('catalogId'),
        catalogIdPath: '/createSurface/catalogId',
        theme: reader.optionalObject('theme'),
        sendDataModel: reader.optionalBoolean('sendDataModel') ?? false,
        components: undefined,
        componentsPath: '/createSurface/components',
        dataModel: undefined,
        metadata: undefined,
      };
    case 'updateComponents':
      reader.onlyKeys(['surfaceId', 'components']);
      return {
        kind,
        surfaceId,
        components: reader.components('components'),
        componentsPath: '/updateComponents/components',
      };
    case 'updateDataModel':
      reader.onlyKeys(['surfaceId', 'path', 'value']);
      return {
        kind,
        surfaceId,
        path: reader.optionalString('path') ?? '/',
        remove: !('value' in body),
        value: body.value,
      };
    default:
      reader.onlyKeys(['surfaceId']);
      return { kind: 'deleteSurface', surfaceId };
  }
}

/** `{version, action}` with the v0.9 fields only (no `userMessage`, no `metadata`). */
export function encodeV09Action(version: string, action: InternalAction): Record<string, unknown> {
  const { name, surfaceId, sourceComponentId, timestamp, context } = action;
  return { version, action: { name, surfaceId, sourceComponentId, timestamp, context } };
}

/** `{version, error}`; the v0.9 schema requires `surfaceId` (`""` when no surface is concerned). */
export function encodeV09Error(version: string, error: ClientError): Record<string, unknown> {
  return { version, error: { ...error, surfaceId: error.surfaceId ?? '' } };
}

/** A2UI v0.9 (digest `a2ui-spec.md`). */
export const v09: ProtocolVersion = Object.freeze({
  name: 'v0.9',
  family: 'v0.9',
  envelopeVersions: Object.freeze(['v0.9']),
  agentMessageKinds: V0_9_AGENT_MESSAGE_KINDS,
  rendererMessageKinds: Object.freeze(['action', 'error']),
  metadataKeys: Object.freeze({
    capabilities: 'a2uiClientCapabilities',
    dataModel: 'a2uiClientDataModel',
    capabilitiesVersion: 'v0.9',
  }),
  mimeTypes: A2UI_MIME_TYPES,
  a2aExtensionUri: `${A2UI_A2A_EXTENSION_URI_PREFIX}v0.9`,
  catalogAliases: Object.freeze({}),
  builtinCatalogs: () => [basicCatalog, minimalCatalog],
  native: true,
  toInternal: (message: Readonly<Record<string, unknown>>) => v09ToInternal(message, 'v0.9'),
  encodeAction: (action: InternalAction) => encodeV09Action('v0.9', action),
  encodeError: (error: ClientError) => encodeV09Error('v0.9', error),
  encodeDataModel: (surfaces: Record<string, unknown>) => ({ version: 'v0.9', surfaces }),
});
