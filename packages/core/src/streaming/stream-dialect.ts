/**
 * What differs between the A2UI versions a model may write inside `<a2ui-json>` blocks: the
 * message keys, the placeholder shown for a child that has not streamed in yet, the default root
 * and the v0.8 leading-slash path rule. One entry per version, so a new version is a new entry.
 */
import type { JsonObject } from './stream-types.js';

/** The protocol versions the streaming parser reads. */
export type A2uiStreamVersion = 'v0.8' | 'v0.9' | 'v1.0';

/** How one protocol version spells what the streaming parser needs. */
export interface StreamDialect {
  readonly version: A2uiStreamVersion;
  /** The message that starts a surface: `beginRendering` (v0.8) or `createSurface` (v0.9). */
  readonly startKey: string;
  /** The message that carries components: `surfaceUpdate` or `updateComponents`. */
  readonly componentsKey: string;
  /** The message that writes the data model: `dataModelUpdate` or `updateDataModel`. */
  readonly dataModelKey: string;
  /**
   * The key of a data-model update whose entries, once sent, need not be read again (`value`).
   * None for v0.8: like the reference parser, each partial v0.8 update carries every entry of
   * `contents` so far, so all of them are read each time.
   */
  readonly dataModelEntriesKey: string | undefined;
  /** The message that removes a surface. */
  readonly deleteKey: string;
  /** Message keys that make an object a message of this version. */
  readonly messageKeys: readonly string[];
  /** Root component id when the start message names none (v0.9 fixes it to `root`). */
  readonly defaultRootId: string | undefined;
  /** v0.8 data paths are absolute; models often drop the slash, so the parser adds it. */
  readonly absolutePaths: boolean;
  /** A renderable stand-in (an empty `Row`) for a child that has not arrived yet. */
  placeholder(id: string): JsonObject;
  /** Wraps components into this version's component message. */
  componentsMessage(surfaceId: string | undefined, components: JsonObject[]): JsonObject;
  /** Wraps a data-model payload into this version's data-model message. */
  dataModelMessage(payload: JsonObject): JsonObject;
}

const V08: StreamDialect = {
  version: 'v0.8',
  startKey: 'beginRendering',
  componentsKey: 'surfaceUpdate',
  dataModelKey: 'dataModelUpdate',
  dataModelEntriesKey: undefined,
  deleteKey: 'deleteSurface',
  messageKeys: ['beginRendering', 'surfaceUpdate', 'dataModelUpdate', 'deleteSurface'],
  defaultRootId: undefined,
  absolutePaths: true,
  placeholder: (id) => ({ id, component: { Row: { children: { explicitList: [] } } } }),
  componentsMessage: (surfaceId, components) => ({ surfaceUpdate: { surfaceId, components } }),
  dataModelMessage: (payload) => ({ dataModelUpdate: payload }),
};

const V09: StreamDialect = {
  version: 'v0.9',
  startKey: 'createSurface',
  componentsKey: 'updateComponents',
  dataModelKey: 'updateDataModel',
  dataModelEntriesKey: 'value',
  deleteKey: 'deleteSurface',
  // deleteSurface is left out on purpose: like the official parser, a v0.9 deleteSurface is only
  // recognised as a top-level message, never when nested.
  messageKeys: ['createSurface', 'updateComponents', 'updateDataModel'],
  defaultRootId: 'root',
  absolutePaths: false,
  placeholder: (id) => ({ id, component: 'Row', children: [] }),
  componentsMessage: (surfaceId, components) => ({
    version: 'v0.9',
    updateComponents: surfaceId === undefined ? { components } : { components, surfaceId },
  }),
  dataModelMessage: (payload) => ({ version: 'v0.9', updateDataModel: payload }),
};

/**
 * The v1.0 candidate keeps v0.9's message and component shapes for what this parser reads; its
 * `createSurface` may also carry the first components inline. Messages it builds say `"v1.0"`.
 */
const V10: StreamDialect = {
  ...V09,
  version: 'v1.0',
  componentsMessage: (surfaceId, components) => ({
    version: 'v1.0',
    updateComponents: surfaceId === undefined ? { components } : { components, surfaceId },
  }),
  dataModelMessage: (payload) => ({ version: 'v1.0', updateDataModel: payload }),
};

/** The dialect of each version the streaming parser reads. */
export const STREAM_DIALECTS: Readonly<Record<A2uiStreamVersion, StreamDialect>> = {
  'v0.8': V08,
  'v0.9': V09,
  'v1.0': V10,
};
