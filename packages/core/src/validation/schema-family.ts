/**
 * The official schema sets a catalog can be validated against: v0.9's (`server_to_client.json`,
 * v0.9 `common_types.json`) and v1.0's (`agent_to_renderer.json`, v1.0 `common_types.json`).
 * A catalog's components `$ref` one set's common types and are registered under that set's
 * `catalog.json` alias, so every validator is compiled within exactly one family.
 */
import { isRecord } from '../protocol/guards.js';
import {
  CATALOG_ALIAS_SCHEMA_ID,
  COMMON_TYPES_SCHEMA_ID,
  SERVER_TO_CLIENT_SCHEMA_ID,
  V1_0_AGENT_TO_RENDERER_SCHEMA_ID,
  V1_0_CATALOG_ALIAS_SCHEMA_ID,
  V1_0_COMMON_TYPES_SCHEMA_ID,
  V1_0_SCHEMA_BASE_URI,
} from './schema-ids.js';

/** One protocol version's schema set, as catalog validators need it. */
export interface SchemaFamily {
  /** The envelope `version` its messages carry: `"v0.9"` or `"v1.0"`. */
  readonly protocolVersion: 'v0.9' | 'v1.0';
  /** `$id` of its `common_types.json`. */
  readonly commonTypesId: string;
  /** `$id` of its agent→renderer message schema. */
  readonly serverMessageId: string;
  /** `$id` the catalog is registered under (the `catalog.json` its documents point at). */
  readonly catalogAliasId: string;
  /** Agent→renderer message kinds, each with the `$defs` entry of the message schema defining it. */
  readonly serverMessageKinds: Readonly<Record<string, string>>;
  /**
   * True when component definitions leave the common properties (`id`, `accessibility`, …) and
   * the closing `unevaluatedProperties: false` to the message schema (v1.0 `Component`); the
   * prepared catalog then wraps each definition the same way, so one component validates alone.
   */
  readonly wrapsComponents: boolean;
}

/** The v0.9 schema set (also used by v0.9.1). */
export const V0_9_SCHEMA_FAMILY: SchemaFamily = Object.freeze({
  protocolVersion: 'v0.9',
  commonTypesId: COMMON_TYPES_SCHEMA_ID,
  serverMessageId: SERVER_TO_CLIENT_SCHEMA_ID,
  catalogAliasId: CATALOG_ALIAS_SCHEMA_ID,
  serverMessageKinds: Object.freeze({
    createSurface: 'CreateSurfaceMessage',
    updateComponents: 'UpdateComponentsMessage',
    updateDataModel: 'UpdateDataModelMessage',
    deleteSurface: 'DeleteSurfaceMessage',
  }),
  wrapsComponents: false,
});

/** The v1.0 schema set (`specification/v1_0`). */
export const V1_0_SCHEMA_FAMILY: SchemaFamily = Object.freeze({
  protocolVersion: 'v1.0',
  commonTypesId: V1_0_COMMON_TYPES_SCHEMA_ID,
  serverMessageId: V1_0_AGENT_TO_RENDERER_SCHEMA_ID,
  catalogAliasId: V1_0_CATALOG_ALIAS_SCHEMA_ID,
  serverMessageKinds: Object.freeze({
    createSurface: 'CreateSurfaceMessage',
    updateComponents: 'UpdateComponentsMessage',
    updateDataModel: 'UpdateDataModelMessage',
    deleteSurface: 'DeleteSurfaceMessage',
    callRendererFunction: 'CallRendererFunctionMessage',
    agentFunctionResponse: 'AgentFunctionResponseMessage',
  }),
  wrapsComponents: true,
});

/** Spellings of v1.0 in a catalog's `protocolVersion` or an option. */
const V1_0_NAMES = new Set(['v1.0', '1.0']);

/**
 * The family a catalog document is written for: v1.0 when `protocolVersion` (the option, else
 * the document's) names v1.0, or when the document `$ref`s a v1.0 schema; v0.9 otherwise (the
 * spec's default for catalogs that name no version).
 *
 * @param catalogSchema - A catalog document.
 * @param protocolVersion - An explicit version (`"v1.0"`, `"1.0"`, `"v0.9"`, …); wins when given.
 * @returns {@link V1_0_SCHEMA_FAMILY} or {@link V0_9_SCHEMA_FAMILY}.
 *
 * @example
 * ```ts
 * schemaFamilyOf({ protocolVersion: '1.0', components: {} }).catalogAliasId;
 * // 'https://a2ui.org/specification/v1_0/catalog.json'
 * ```
 */
export function schemaFamilyOf(catalogSchema: unknown, protocolVersion?: string): SchemaFamily {
  if (protocolVersion !== undefined)
    return V1_0_NAMES.has(protocolVersion) ? V1_0_SCHEMA_FAMILY : V0_9_SCHEMA_FAMILY;
  const declared = isRecord(catalogSchema) ? catalogSchema.protocolVersion : undefined;
  if (typeof declared === 'string')
    return V1_0_NAMES.has(declared) ? V1_0_SCHEMA_FAMILY : V0_9_SCHEMA_FAMILY;
  return JSON.stringify(catalogSchema ?? null).includes(`"${V1_0_SCHEMA_BASE_URI}`)
    ? V1_0_SCHEMA_FAMILY
    : V0_9_SCHEMA_FAMILY;
}

/**
 * The family of a prepared catalog schema, read from the alias `$id` it was registered under
 * (precompiled modules carry it in `catalogSchema.$id`).
 */
export function schemaFamilyOfAlias(aliasId: unknown): SchemaFamily {
  return aliasId === V1_0_CATALOG_ALIAS_SCHEMA_ID ? V1_0_SCHEMA_FAMILY : V0_9_SCHEMA_FAMILY;
}
