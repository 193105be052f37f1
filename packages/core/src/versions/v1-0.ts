/**
 * A2UI v1.0 candidate (`specification/v1_0` of 2026-08-20; digest `a2ui-v1.md` §3–§8): the
 * renamed agent_to_renderer / renderer_to_agent messages, `createSurface` with optional
 * `catalogId`, inline `components`/`dataModel` and `metadata`, `updateDataModel` whose `value` is
 * required (`null` deletes), function calls both ways, and the `error` that names exactly one of
 * `surfaceId`/`functionCallId`. Spellings still moving upstream live in `v1-0-spelling.ts`.
 */
import { SURFACE_CONTAINER_TYPE } from '../catalog/composition.js';
import { isRecord } from '../protocol/guards.js';
import type { ClientError, ComponentInstance, FunctionCall } from '../protocol/messages.js';
import { hoistInlineTemplates } from './hoist-inline-templates.js';
import { A2UI_A2A_EXTENSION_URI_PREFIX, A2UI_MIME_TYPES } from './mime-types.js';
import { normalizeReservedKeys, takePlainNote } from './normalize-reserved-keys.js';
import type { InternalAction, InternalMessage, ProtocolVersion } from './protocol-version.js';
import { BodyReader } from './read-body.js';
import { readEnvelope, readSurfaceId, specError } from './read-envelope.js';
import { v10BuiltinCatalogs } from './v1-0-catalogs.js';
import { V1_0_ENVELOPE_VERSIONS } from './v1-0-spelling.js';

/** v1.0's agent→renderer message kinds (`agent_to_renderer.json`). */
export const V1_0_AGENT_MESSAGE_KINDS: readonly string[] = Object.freeze([
  'createSurface',
  'updateComponents',
  'updateDataModel',
  'deleteSurface',
  'callRendererFunction',
  'agentFunctionResponse',
]);

/** v1.0's renderer→agent message kinds (`renderer_to_agent.json`). */
export const V1_0_RENDERER_MESSAGE_KINDS: readonly string[] = Object.freeze([
  'action',
  'callAgentFunction',
  'rendererFunctionResponse',
  'error',
]);

/** Error codes whose v1.0 wire form is the "Validation Failed Error" branch (with `path`). */
const PATH_ERROR_CODES = new Set(['VALIDATION_FAILED', 'UNALLOWED_PARENT', 'UNALLOWED_CHILD']);

const written = (): string => V1_0_ENVELOPE_VERSIONS[0]!;

/** `value` with its `@` keys read as bare ones, unless its message is known to have none. */
const normalize = (value: unknown, path: string, plain: boolean): unknown =>
  plain ? value : normalizeReservedKeys(value, path);

/**
 * Components of a v1.0 message: `@` keys read as bare ones, inline collection templates hoisted
 * into the surface, the reserved `Surface` refused.
 */
function readComponents(reader: BodyReader, plain: boolean): readonly ComponentInstance[] {
  const received = reader.components('components');
  const components = hoistInlineTemplates(
    (plain
      ? received
      : normalizeReservedKeys(received, reader.pathOf('components'))) as ComponentInstance[],
  );
  // An indexed loop, the pointer built only for an error: this runs for every components message.
  for (let index = 0; index < components.length; index++) {
    const component = components[index]!;
    if (component.component === SURFACE_CONTAINER_TYPE) {
      throw specError(
        `${reader.pathOf('components')}/${index}/component`,
        `Component "${component.id}" cannot be of type "Surface": createSurface makes the surface's one Surface container, and updateComponents may not touch it.`,
        reader.surfaceId,
      );
    }
  }
  return components;
}

function createSurface(reader: BodyReader, surfaceId: string, plain: boolean): InternalMessage {
  if ('theme' in reader.body) {
    throw specError(
      reader.pathOf('theme'),
      'v1.0 removed "createSurface.theme"; style through the catalog instead.',
      surfaceId,
    );
  }
  reader.onlyKeys([
    'surfaceId',
    'catalogId',
    'sendDataModel',
    'components',
    'dataModel',
    'metadata',
  ]);
  const metadata = reader.optionalObject('metadata');
  if (metadata) {
    for (const key of Object.keys(metadata)) {
      if (key !== 'extensions')
        throw specError(
          `/createSurface/metadata/${key}`,
          'createSurface.metadata holds only "extensions".',
          surfaceId,
        );
    }
    if (metadata.extensions !== undefined && !isRecord(metadata.extensions))
      throw specError(
        '/createSurface/metadata/extensions',
        '"metadata.extensions" must be an object.',
        surfaceId,
      );
  }
  return {
    kind: 'createSurface',
    surfaceId,
    catalogId: reader.optionalString('catalogId'),
    catalogIdPath: '/createSurface/catalogId',
    theme: undefined,
    sendDataModel: reader.optionalBoolean('sendDataModel') ?? false,
    components: 'components' in reader.body ? readComponents(reader, plain) : undefined,
    componentsPath: '/createSurface/components',
    dataModel: reader.optionalObject('dataModel'),
    metadata,
  };
}

function updateDataModel(reader: BodyReader, surfaceId: string): InternalMessage {
  reader.onlyKeys(['surfaceId', 'path', 'value']);
  if (!('value' in reader.body)) {
    throw specError(
      '/updateDataModel/value',
      '"updateDataModel.value" is required in v1.0; send "value": null to delete the key at "path".',
      surfaceId,
    );
  }
  const value = reader.body.value;
  return {
    kind: 'updateDataModel',
    surfaceId,
    path: reader.optionalString('path') ?? '/',
    remove: value === null,
    value,
  };
}

function callRendererFunction(reader: BodyReader, plain: boolean): InternalMessage {
  reader.onlyKeys(['functionCallId', 'callFunction']);
  const functionCallId = reader.requiredString('functionCallId');
  const call = normalize(
    reader.optionalObject('callFunction'),
    '/callRendererFunction/callFunction',
    plain,
  );
  if (!isRecord(call) || typeof call.call !== 'string' || typeof call.catalogId !== 'string') {
    throw specError(
      '/callRendererFunction/callFunction',
      '"callRendererFunction.callFunction" must be a function call with a string "call" and "catalogId".',
    );
  }
  return {
    kind: 'callRendererFunction',
    functionCallId,
    callFunction: call as unknown as FunctionCall & { catalogId: string },
  };
}

function agentFunctionResponse(reader: BodyReader): InternalMessage {
  reader.onlyKeys(['functionCallId', 'value', 'error']);
  const functionCallId = reader.requiredString('functionCallId');
  const hasValue = 'value' in reader.body;
  const error = reader.body.error;
  if (hasValue === (error !== undefined)) {
    throw specError(
      '/agentFunctionResponse',
      'An agentFunctionResponse carries exactly one of "value" and "error".',
    );
  }
  if (!hasValue) {
    if (!isRecord(error) || typeof error.code !== 'string' || typeof error.message !== 'string')
      throw specError(
        '/agentFunctionResponse/error',
        '"error" must be {code: string, message: string}.',
      );
    return {
      kind: 'agentFunctionResponse',
      functionCallId,
      error: { code: error.code, message: error.message },
    };
  }
  return { kind: 'agentFunctionResponse', functionCallId, value: reader.body.value };
}

/**
 * Maps one v1.0 message onto the internal model.
 * @throws A2uiError `VALIDATION_FAILED`
 */
export function v10ToInternal(message: Readonly<Record<string, unknown>>): InternalMessage {
  const { kind, body } = readEnvelope(message, V1_0_AGENT_MESSAGE_KINDS, {
    versionName: 'v1.0',
    multipleKindsMessage: 'Message contains multiple update types',
  });
  const reader = new BodyReader(kind, body, readSurfaceId(body));
  const plain = takePlainNote(message);
  if (kind === 'callRendererFunction') return callRendererFunction(reader, plain);
  if (kind === 'agentFunctionResponse') return agentFunctionResponse(reader);
  const surfaceId = reader.requiredString('surfaceId');
  switch (kind) {
    case 'createSurface':
      return createSurface(reader, surfaceId, plain);
    case 'updateComponents':
      reader.onlyKeys(['surfaceId', 'components']);
      return {
        kind,
        surfaceId,
        components: readComponents(reader, plain),
        componentsPath: '/updateComponents/components',
      };
    case 'updateDataModel':
      return updateDataModel(reader, surfaceId);
    default:
      reader.onlyKeys(['surfaceId']);
      return { kind: 'deleteSurface', surfaceId };
  }
}

/**
 * The v1.0 `error`: `UNALLOWED_*` and `VALIDATION_FAILED` carry `surfaceId` and `path`; any other
 * code names exactly one of `surfaceId` / `functionCallId`.
 */
export function encodeV10Error(error: ClientError): Record<string, unknown> {
  if (PATH_ERROR_CODES.has(error.code)) {
    return {
      version: written(),
      error: {
        code: error.code,
        surfaceId: error.surfaceId ?? '',
        path: String(error.path ?? ''),
        message: error.message,
      },
    };
  }
  const { functionCallId, surfaceId, ...rest } = error as ClientError & {
    functionCallId?: unknown;
  };
  const target =
    typeof functionCallId === 'string' ? { functionCallId } : { surfaceId: surfaceId ?? '' };
  return { version: written(), error: { ...rest, ...target } };
}

/** The v1.0 `action`, with `userMessage` and `metadata` when present. */
export function encodeV10Action(action: InternalAction): Record<string, unknown> {
  const { name, surfaceId, sourceComponentId, timestamp, context, userMessage, metadata } = action;
  return {
    version: written(),
    action: {
      name,
      surfaceId,
      sourceComponentId,
      timestamp,
      context,
      ...(userMessage === undefined ? {} : { userMessage }),
      ...(metadata === undefined ? {} : { metadata }),
    },
  };
}

/** A2UI v1.0 candidate. */
export const v10: ProtocolVersion = Object.freeze({
  name: 'v1.0',
  family: 'v1.0',
  envelopeVersions: V1_0_ENVELOPE_VERSIONS,
  agentMessageKinds: V1_0_AGENT_MESSAGE_KINDS,
  rendererMessageKinds: V1_0_RENDERER_MESSAGE_KINDS,
  metadataKeys: Object.freeze({
    capabilities: 'a2uiRendererCapabilities',
    dataModel: 'a2uiRendererDataModel',
    capabilitiesVersion: 'v1.0',
  }),
  mimeTypes: A2UI_MIME_TYPES,
  a2aExtensionUri: `${A2UI_A2A_EXTENSION_URI_PREFIX}v1.0`,
  catalogAliases: Object.freeze({}),
  builtinCatalogs: v10BuiltinCatalogs,
  native: false,
  toInternal: v10ToInternal,
  encodeAction: encodeV10Action,
  encodeError: encodeV10Error,
  encodeDataModel: (surfaces: Record<string, unknown>) => ({ version: written(), surfaces }),
});
