/**
 * A2UI v0.9.1 (`specification/v0_9_1`): v0.9's schemas with `version` `"v0.9.1"`, the standard
 * MIME type `application/a2ui+json`, its own A2A extension URI, and doc examples that name the
 * basic catalog by a `v0_9_1` URL (evolution guide; digest `a2ui-v1.md` §2).
 */
import { basicCatalog, minimalCatalog } from '../catalog/default-catalogs.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ClientError } from '../protocol/messages.js';
import { A2UI_A2A_EXTENSION_URI_PREFIX, A2UI_MIME_TYPES } from './mime-types.js';
import type { InternalAction, ProtocolVersion } from './protocol-version.js';
import {
  encodeV09Action,
  encodeV09Error,
  V0_9_AGENT_MESSAGE_KINDS,
  v09ToInternal,
} from './v0-9.js';

/** The basic catalog id v0.9.1's docs use; the catalog itself is v0.9's. */
export const V0_9_1_BASIC_CATALOG_ID =
  'https://a2ui.org/specification/v0_9_1/catalogs/basic/catalog.json';

/** A2UI v0.9.1. Same wire model as v0.9 (family `"v0.9"`): surfaces accept either. */
export const v091: ProtocolVersion = Object.freeze({
  name: 'v0.9.1',
  family: 'v0.9',
  envelopeVersions: Object.freeze(['v0.9.1']),
  agentMessageKinds: V0_9_AGENT_MESSAGE_KINDS,
  rendererMessageKinds: Object.freeze(['action', 'error']),
  metadataKeys: Object.freeze({
    capabilities: 'a2uiClientCapabilities',
    dataModel: 'a2uiClientDataModel',
    // client_capabilities.json (v0.9.1) still requires the "v0.9" key; its doc example shows
    // "v0.9.1". We write the schema's key; capabilities readers accept both.
    capabilitiesVersion: 'v0.9',
  }),
  mimeTypes: A2UI_MIME_TYPES,
  a2aExtensionUri: `${A2UI_A2A_EXTENSION_URI_PREFIX}v0.9.1`,
  catalogAliases: Object.freeze({ [V0_9_1_BASIC_CATALOG_ID]: BASIC_CATALOG_ID }),
  builtinCatalogs: () => [basicCatalog, minimalCatalog],
  native: true,
  toInternal: (message: Readonly<Record<string, unknown>>) => v09ToInternal(message, 'v0.9.1'),
  encodeAction: (action: InternalAction) => encodeV09Action('v0.9.1', action),
  encodeError: (error: ClientError) => encodeV09Error('v0.9.1', error),
  encodeDataModel: (surfaces: Record<string, unknown>) => ({ version: 'v0.9.1', surfaces }),
});
