/**
 * The renderer's metadata under either of its names. v1.0 renamed the keys that travel beside
 * every client message (`a2ui_protocol.md` "Capabilities and metadata"; the v1.0 A2A extension):
 * `a2uiClientCapabilities` → `a2uiRendererCapabilities`, `a2uiClientDataModel` →
 * `a2uiRendererDataModel`. A v1.0 link sends the new names; every reader accepts both, through
 * this one rule, so a v0.9 client keeps working against a v1.0 server and back.
 */
import { A2UI_VERSION } from './constants.js';
import { isRecord } from './guards.js';
import type { ClientDataModel } from './messages.js';

/** Both names of each renderer metadata key: v1.0's, and the one v0.8–v0.9.1 use. */
export const RENDERER_METADATA_KEYS = {
  capabilities: { v1: 'a2uiRendererCapabilities', older: 'a2uiClientCapabilities' },
  dataModel: { v1: 'a2uiRendererDataModel', older: 'a2uiClientDataModel' },
} as const;

/** The data model's `version` on a v1.0 link (`renderer_data_model.json`). */
export const RENDERER_DATA_MODEL_VERSION = 'v1.0';

/**
 * The data model the renderer sent, under either name, as the older key carries it
 * (`{version: "v0.9", surfaces}`: the surfaces' data is the same in every version). The older
 * name wins when a message carries both (a renderer speaking several versions sends the same
 * surfaces under each).
 *
 * @param metadata - a client message's metadata (anything: what is not a record reads as none)
 * @returns the data model, or `undefined` when neither key holds one
 *
 * @example
 * ```ts
 * readRendererDataModel({ a2uiRendererDataModel: { version: 'v1.0', surfaces: { s: { a: 1 } } } });
 * // { version: 'v0.9', surfaces: { s: { a: 1 } } }
 * ```
 */
export function readRendererDataModel(metadata: unknown): ClientDataModel | undefined {
  if (!isRecord(metadata)) return undefined;
  const older = metadata[RENDERER_METADATA_KEYS.dataModel.older];
  if (isRecord(older) && isRecord(older.surfaces)) return older as unknown as ClientDataModel;
  const v1 = metadata[RENDERER_METADATA_KEYS.dataModel.v1];
  if (isRecord(v1) && isRecord(v1.surfaces))
    return { version: A2UI_VERSION, surfaces: v1.surfaces };
  return undefined;
}

/**
 * The renderer's capabilities keyed by version, from both names merged (each name carries its
 * own versions: `{"v0.9": …}` under the older one, `{"v1.0": …}` under v1.0's; v1.0's name wins
 * on a version both carry).
 *
 * @returns the merged map, or `undefined` when neither key holds one
 *
 * @example
 * ```ts
 * readRendererCapabilities({ a2uiClientCapabilities: { 'v0.9': a }, a2uiRendererCapabilities: { 'v1.0': b } });
 * // { 'v0.9': a, 'v1.0': b }
 * ```
 */
export function readRendererCapabilities(metadata: unknown): Record<string, unknown> | undefined {
  if (!isRecord(metadata)) return undefined;
  const older = metadata[RENDERER_METADATA_KEYS.capabilities.older];
  const v1 = metadata[RENDERER_METADATA_KEYS.capabilities.v1];
  if (!isRecord(older) && !isRecord(v1)) return undefined;
  return { ...(isRecord(older) ? older : {}), ...(isRecord(v1) ? v1 : {}) };
}

/**
 * The data model entry a renderer sends on a link of `version`: `a2uiRendererDataModel` with
 * `version: "v1.0"` on v1.0 (and later) links, `a2uiClientDataModel` with `version: "v0.9"`
 * otherwise (and when nothing was negotiated yet).
 *
 * @param surfaces - the data model of each surface created with `sendDataModel`, by surface id
 * @param version - the link's negotiated A2UI version (`"v1.0"`, `"1.0"`, `"v0.9"`…), if any
 *
 * @example
 * ```ts
 * rendererDataModelEntry({ s: { a: 1 } }, 'v1.0');
 * // { a2uiRendererDataModel: { version: 'v1.0', surfaces: { s: { a: 1 } } } }
 * ```
 */
export function rendererDataModelEntry(
  surfaces: Record<string, unknown>,
  version: string | undefined,
): Record<string, unknown> {
  return speaksV1(version)
    ? {
        [RENDERER_METADATA_KEYS.dataModel.v1]: {
          version: RENDERER_DATA_MODEL_VERSION,
          surfaces,
        },
      }
    : { [RENDERER_METADATA_KEYS.dataModel.older]: { version: A2UI_VERSION, surfaces } };
}

/** Whether `version` (`"v1.0"`, `"1.0"`, `"v2"`…) is v1.0 or later. */
function speaksV1(version: string | undefined): boolean {
  const major = Number(/^v?(\d+)/.exec(version ?? '')?.[1]);
  return Number.isFinite(major) && major >= 1;
}
