/**
 * The MCP Apps catalogs as `Catalog`s, with precompiled (eval-free) validators that load on
 * first need: a page under a CSP without `'unsafe-eval'` renders `McpApp` surfaces, and a page
 * that never registers them never downloads their validators.
 */
import { BASIC_FUNCTIONS } from '../functions/basic-functions.js';
import {
  lazyMcpAppCatalogValidator,
  lazyV10McpAppCatalogValidator,
} from '../validation/builtin-catalog-validators.js';
import { V1_0_BASIC_FUNCTIONS } from '../versions/v1-0-catalogs.js';
import { type Catalog, createCatalog } from './catalog.js';
import {
  MCP_APP_CATALOG_ID,
  MCP_APP_CATALOG_V1_0_ID,
  mcpAppCatalogSchema,
  mcpAppCatalogV1Schema,
} from './mcp-app-catalog.js';

/** Options of {@link createMcpAppCatalog}. */
export interface McpAppCatalogOptions {
  /**
   * The A2UI version of the catalog: `'v0.9'` ({@link MCP_APP_CATALOG_ID}, the v0.9 basic
   * catalog plus `McpApp`) or `'v1.0'` ({@link MCP_APP_CATALOG_V1_0_ID}, the v1.0 one).
   * @default 'v0.9'
   */
  protocolVersion?: 'v0.9' | 'v1.0';
}

/**
 * The MCP Apps catalog of one A2UI version: the basic catalog's components and functions plus
 * `McpApp`, validated by its precompiled schema. Register it (both versions for a client that
 * speaks both) so the catalog is offered to agents and its surfaces are validated.
 *
 * @param options - which version; see {@link McpAppCatalogOptions}
 * @returns a new `Catalog` (its validator is shared and loads its chunk on first need)
 *
 * @example
 * ```ts
 * const client = new A2uiClient({
 *   catalogs: [...createDefaultCatalogs().values(), createMcpAppCatalog(), createMcpAppCatalog({ protocolVersion: 'v1.0' })],
 * });
 * ```
 */
export function createMcpAppCatalog(options: McpAppCatalogOptions = {}): Catalog {
  if (options.protocolVersion === 'v1.0')
    return createCatalog({
      catalogId: MCP_APP_CATALOG_V1_0_ID,
      protocolVersion: 'v1.0',
      schema: mcpAppCatalogV1Schema(),
      functions: V1_0_BASIC_FUNCTIONS,
      validator: lazyV10McpAppCatalogValidator(),
    });
  return createCatalog({
    catalogId: MCP_APP_CATALOG_ID,
    schema: mcpAppCatalogSchema(),
    functions: BASIC_FUNCTIONS,
    validator: lazyMcpAppCatalogValidator(),
  });
}
