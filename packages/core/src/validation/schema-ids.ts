/**
 * `$id`s of the official v0.9 schema documents (digest §6, §10.3).
 */

/** Base URI every v0.9 schema `$id` starts with. */
export const A2UI_SCHEMA_BASE_URI = 'https://a2ui.org/specification/v0_9/';

/** `$id` of `common_types.json`; catalogs reference common types by this absolute URI. */
export const COMMON_TYPES_SCHEMA_ID = `${A2UI_SCHEMA_BASE_URI}common_types.json`;

/** `$id` of `server_to_client.json`. */
export const SERVER_TO_CLIENT_SCHEMA_ID = `${A2UI_SCHEMA_BASE_URI}server_to_client.json`;

/**
 * `$id` under which a catalog is registered for validation. `server_to_client.json` and
 * `common_types.json` point at the placeholder `catalog.json`; the official test runner rewrites
 * the chosen catalog's `$id` to this URI, and so do we (digest §10.3).
 */
export const CATALOG_ALIAS_SCHEMA_ID = `${A2UI_SCHEMA_BASE_URI}catalog.json`;

/**
 * `$id` given to `client_to_server.json`, which ships without one; `client_to_server_list.json`
 * refers to it by this relative name.
 */
export const CLIENT_TO_SERVER_SCHEMA_ID = `${A2UI_SCHEMA_BASE_URI}client_to_server.json`;

/** `$id` of `client_capabilities.json`. */
export const CLIENT_CAPABILITIES_SCHEMA_ID = `${A2UI_SCHEMA_BASE_URI}client_capabilities.json`;

/** `$id` of `client_data_model.json`. */
export const CLIENT_DATA_MODEL_SCHEMA_ID = `${A2UI_SCHEMA_BASE_URI}client_data_model.json`;

/** `$id` of `server_capabilities.json`. */
export const SERVER_CAPABILITIES_SCHEMA_ID = `${A2UI_SCHEMA_BASE_URI}server_capabilities.json`;

/** Base URI every v1.0 schema `$id` starts with (`specification/v1_0`). */
export const V1_0_SCHEMA_BASE_URI = 'https://a2ui.org/specification/v1_0/';

/** `$id` of v1.0 `common_types.json`; v1.0 catalogs reference common types by this URI. */
export const V1_0_COMMON_TYPES_SCHEMA_ID = `${V1_0_SCHEMA_BASE_URI}common_types.json`;

/** `$id` of v1.0 `agent_to_renderer.json` (v0.9's `server_to_client.json`). */
export const V1_0_AGENT_TO_RENDERER_SCHEMA_ID = `${V1_0_SCHEMA_BASE_URI}agent_to_renderer.json`;

/**
 * `$id` a v1.0 catalog is registered under for validation: `agent_to_renderer.json` and v1.0
 * `common_types.json` point at the placeholder `catalog.json` beside them, as v0.9's do.
 */
export const V1_0_CATALOG_ALIAS_SCHEMA_ID = `${V1_0_SCHEMA_BASE_URI}catalog.json`;
