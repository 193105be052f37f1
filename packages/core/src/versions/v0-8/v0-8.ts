/**
 * A2UI v0.8 (`specification/v0_8`, v0.8.2) as a {@link ProtocolVersion}: messages without a
 * `version`, recognised by their keys, validated against the official v0.8 schema and upgraded
 * into the engine's model; actions and errors go back as v0.8 `userAction` / `error`. The reader
 * (`v08-reader.ts`) and the schemas load with the first v0.8 message (`prepareValidators`).
 */
import { A2uiError } from '../../errors/a2ui-error.js';
import type { ClientError } from '../../protocol/messages.js';
import { v08ValidatorModule } from '../../validation/builtin-validator-modules.js';
import {
  A2UI_A2A_EXTENSION_URI_PREFIX,
  A2UI_LEGACY_MIME_TYPE,
  A2UI_MIME_TYPE,
} from '../mime-types.js';
import type { InternalAction, InternalMessage, ProtocolVersion } from '../protocol-version.js';
import { v08BuiltinCatalogs } from './v08-catalogs.js';
import { V08_SERVER_MESSAGE_KINDS, V08_VERSION } from './v08-messages.js';
import type { V08ReaderOptions } from './v08-reader.js';
import { v08ReaderModule } from './v08-reader-module.js';
import { encodeV08Action, encodeV08Error } from './v08-renderer-messages.js';

/** Loads what reading v0.8 needs (the reader and the v0.8 schemas); `undefined` once loaded. */
function prepareV08(): Promise<void> | undefined {
  const loads = [v08ValidatorModule, v08ReaderModule]
    .filter((module) => !module.loaded)
    .map((module) => module.load());
  return loads.length === 0 ? undefined : Promise.all(loads).then(() => undefined);
}

/**
 * The v0.8 module, reading custom catalogs' components with their v0.8 validators; register it in
 * place of {@link v08} (`registry.register(createV08ProtocolVersion({catalogValidators}))`).
 */
export function createV08ProtocolVersion(options: V08ReaderOptions = {}): ProtocolVersion {
  return Object.freeze({
    ...v08,
    createReader: () => v08ReaderModule.get().createV08Reader(options),
  });
}

/** A2UI v0.8 (digest `a2ui-spec.md` §13; `specification/v0_8/`). */
export const v08: ProtocolVersion = Object.freeze({
  name: V08_VERSION,
  family: V08_VERSION,
  // v0.8 messages carry no `version`: the processor recognises them by their keys.
  envelopeVersions: Object.freeze([]),
  agentMessageKinds: V08_SERVER_MESSAGE_KINDS,
  rendererMessageKinds: Object.freeze(['userAction', 'error']),
  metadataKeys: Object.freeze({
    capabilities: 'a2uiClientCapabilities',
    dataModel: 'a2uiClientDataModel',
    capabilitiesVersion: V08_VERSION,
  }),
  // The v0.8 A2A extension names the legacy type; the standard one is accepted too.
  mimeTypes: Object.freeze([A2UI_LEGACY_MIME_TYPE, A2UI_MIME_TYPE]),
  a2aExtensionUri: `${A2UI_A2A_EXTENSION_URI_PREFIX}v0.8`,
  catalogAliases: Object.freeze({}),
  builtinCatalogs: v08BuiltinCatalogs,
  prepareValidators: prepareV08,
  native: false,
  // v0.8 has no arrays in its data model: a list is a `valueMap` (v0.8 §3.3, §4.1).
  templatesIterateObjects: true,
  createReader: () => v08ReaderModule.get().createV08Reader(),
  /**
   * One message on its own: only a `beginRendering` or `deleteSurface` means something without
   * the stream around it (components wait for their surface's `beginRendering`).
   */
  toInternal(message: Readonly<Record<string, unknown>>): InternalMessage {
    const [first] = v08ReaderModule.get().createV08Reader().read(message);
    if (first) return first;
    throw new A2uiError(
      'VALIDATION_FAILED',
      "A v0.8 surfaceUpdate or dataModelUpdate waits for its surface's beginRendering; read v0.8 streams with createReader().",
      { path: '' },
    );
  },
  encodeAction: (action: InternalAction) => encodeV08Action(action) as Record<string, unknown>,
  encodeError: (error: ClientError) => encodeV08Error(error) as Record<string, unknown>,
  encodeDataModel: (surfaces: Record<string, unknown>) => ({ version: V08_VERSION, surfaces }),
});
