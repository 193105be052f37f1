/**
 * The v0.8 message schemas this project validates with, built from the official files: the
 * catalog-agnostic `server_to_client.json` with a catalog's components and styles put in (as
 * upstream generated `server_to_client_with_standard_catalog.json`).
 */
import { isRecord } from '../../protocol/guards.js';

/** A v0.8 catalog (`catalog_description_schema.json`): component and style schemas by name. */
export interface V08Catalog {
  /** Id agents name in `beginRendering.catalogId`. */
  catalogId?: string;
  components: Record<string, unknown>;
  styles?: Record<string, unknown>;
}

/** Schema `$id`s of the v0.8 documents (upstream ships them without one). */
export const V08_SERVER_TO_CLIENT_SCHEMA_ID =
  'https://a2ui.org/specification/v0_8/server_to_client.json';
export const V08_CLIENT_TO_SERVER_SCHEMA_ID =
  'https://a2ui.org/specification/v0_8/client_to_server.json';

/**
 * `serverToClient` with `surfaceUpdate` components restricted to `catalog.components` (exactly one
 * key, each validated by its schema) and `beginRendering.styles` to `catalog.styles`.
 *
 * @param serverToClient - the official `server_to_client.json`
 * @returns a new schema; the inputs are not modified
 */
export function buildV08CatalogSchema(
  serverToClient: Record<string, unknown>,
  catalog: V08Catalog,
  id: string,
): Record<string, unknown> {
  const schema = structuredClone(serverToClient);
  schema.$id = id;
  // The official layout: properties.surfaceUpdate.properties.components.items.properties.component.
  const at = (value: unknown, ...keys: string[]): Record<string, unknown> =>
    keys.reduce(
      (node, key) => node[key] as Record<string, unknown>,
      value as Record<string, unknown>,
    );
  const item = at(
    schema,
    'properties',
    'surfaceUpdate',
    'properties',
    'components',
    'items',
    'properties',
  );
  item.component = {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    properties: structuredClone(catalog.components),
  };
  if (isRecord(catalog.styles)) {
    at(schema, 'properties', 'beginRendering', 'properties').styles = {
      type: 'object',
      additionalProperties: true,
      properties: structuredClone(catalog.styles),
    };
  }
  return schema;
}
