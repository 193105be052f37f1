/**
 * The MCP Apps catalog document compiles, accepts McpApp next to the basic components, and its
 * schema refuses what the renderer must never receive (a non-ui:// resource, unknown properties).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadValidators } from '../validation/builtin-validator-modules.js';
import { compileCatalogValidator } from '../validation/compile-catalog-validator.js';
import { MCP_APP_CATALOG_ID, mcpAppCatalogSchema } from './mcp-app-catalog.js';

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
