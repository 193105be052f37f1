/**
 * The MCP Apps catalog document compiles, accepts McpApp next to the basic components, and its
 * schema refuses what the renderer must never receive (a non-ui:// resource, unknown properties).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadValidators } from '../validation/builtin-validator-modules.js';
import { compileCatalogValidator } from '../validation/compile-catalog-validator.js';
import { createMcpAppCatalog } from './create-mcp-app-catalog.js';
import {
  MCP_APP_CATALOG_ID,
  MCP_APP_CATALOG_V1_0_ID,
  mcpAppCatalogSchema,
} from './mcp-app-catalog.js';

const validator = compileCatalogValidator(mcpAppCatalogSchema());
// Importing this module alone (not core's index) leaves the failure wording to load on first need.
beforeAll(() => loadValidators());

function updateComponents(components: object[]) {
  return {
    version: 'v0.9',
    updateComponents: { surfaceId: 's', components },
  };
}

describe('MCP Apps catalog', () => {
  it('is registered under its own id', () => {
    expect(validator.catalogId).toBe(MCP_APP_CATALOG_ID);
  });

  it('accepts McpApp beside basic components', () => {
    const result = validator.validateServerMessage(
      updateComponents([
        { id: 'root', component: 'Column', children: ['app', 'score'] },
        {
          id: 'app',
          component: 'McpApp',
          title: 'Dice',
          resourceUri: 'ui://dice/app',
          allowedTools: ['roll'],
          value: { path: '/game' },
          action: { event: { name: 'scored', context: { score: { path: '/game/score' } } } },
        },
        { id: 'score', component: 'Text', text: { path: '/game/score' } },
      ]),
    );
    expect(result).toEqual([]);
  });

  it('refuses a resource outside ui:// and properties it does not define', () => {
    const wrongScheme = validator.validateServerMessage(
      updateComponents([
        { id: 'root', component: 'McpApp', title: 'x', resourceUri: 'https://evil.test/' },
      ]),
    );
    expect(wrongScheme.length).toBeGreaterThan(0);
    const unknown = validator.validateServerMessage(
      updateComponents([
        { id: 'root', component: 'McpApp', title: 'x', sandbox: 'allow-same-origin' },
      ]),
    );
    expect(unknown.length).toBeGreaterThan(0);
  });
});

describe('createMcpAppCatalog', () => {
  const app = { id: 'app', component: 'McpApp', title: 'Dice', resourceUri: 'ui://dice/app' };

  it('validates the v0.9 catalog with its precompiled validator', async () => {
    const catalog = createMcpAppCatalog();
    expect(catalog.catalogId).toBe(MCP_APP_CATALOG_ID);
    await catalog.validator?.load?.();
    expect(catalog.validator?.loaded).toBe(true);
    expect(
      catalog.validator?.validateServerMessage(
        updateComponents([{ id: 'root', component: 'Column', children: ['app'] }, app]),
      ),
    ).toEqual([]);
  });

  it('has a v1.0 variant: the v1.0 basic components plus McpApp, protocolVersion 1.0', async () => {
    const catalog = createMcpAppCatalog({ protocolVersion: 'v1.0' });
    expect(catalog.catalogId).toBe(MCP_APP_CATALOG_V1_0_ID);
    expect(catalog.protocolVersion).toBe('v1.0');
    await catalog.validator?.load?.();
    const validator = catalog.validator!;
    const create = {
      version: 'v1.0',
      createSurface: {
        surfaceId: 's',
        catalogId: MCP_APP_CATALOG_V1_0_ID,
        components: [{ id: 'root', component: 'Column', children: ['app'] }, app],
      },
    };
    expect(validator.validateServerMessage(create)).toEqual([]);
    const wrong = structuredClone(create);
    (wrong.createSurface.components[1] as Record<string, unknown>).resourceUri = 'https://x/';
    expect(validator.validateServerMessage(wrong).length).toBeGreaterThan(0);
    // v1.0's Text has no h1 variant: the v1.0 basic components are the ones checked.
    const h1 = structuredClone(create);
    h1.createSurface.components[1] = {
      id: 'app',
      component: 'Text',
      text: 'x',
      variant: 'h1',
    } as never;
    expect(validator.validateServerMessage(h1).length).toBeGreaterThan(0);
  });
});
