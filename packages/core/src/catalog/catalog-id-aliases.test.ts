/**
 * CopilotKit's A2UI renderer (`@copilotkit/a2ui-renderer` 1.74) names the v0.9 catalogs by other
 * URLs; they are accepted as the spec's catalogs wherever a catalog id is looked up.
 */
import { expect, it } from 'vitest';
import { BASIC_CATALOG_ID, MINIMAL_CATALOG_ID } from '../protocol/constants.js';
import {
  COPILOTKIT_CATALOG_IDS,
  supportsCatalogId,
  toSpecCatalogId,
} from './catalog-id-aliases.js';
import { createDefaultCatalogs } from './default-catalogs.js';

const COPILOTKIT_BASIC = 'https://a2ui.org/specification/v0_9/basic_catalog.json';
const COPILOTKIT_MINIMAL =
  'https://a2ui.org/specification/v0_9/catalogs/minimal/minimal_catalog.json';

it('maps CopilotKit catalog ids to the spec ids, and back', () => {
  expect(toSpecCatalogId(COPILOTKIT_BASIC)).toBe(BASIC_CATALOG_ID);
  expect(toSpecCatalogId(COPILOTKIT_MINIMAL)).toBe(MINIMAL_CATALOG_ID);
  expect(toSpecCatalogId('https://example.com/mine.json')).toBe('https://example.com/mine.json');
  expect(COPILOTKIT_CATALOG_IDS[BASIC_CATALOG_ID]).toBe(COPILOTKIT_BASIC);
  expect(COPILOTKIT_CATALOG_IDS[MINIMAL_CATALOG_ID]).toBe(COPILOTKIT_MINIMAL);
});

it('takes capabilities that list an alias as supporting the spec catalog', () => {
  expect(supportsCatalogId([COPILOTKIT_BASIC], BASIC_CATALOG_ID)).toBe(true);
  expect(supportsCatalogId([BASIC_CATALOG_ID], COPILOTKIT_BASIC)).toBe(true);
  expect(supportsCatalogId([COPILOTKIT_MINIMAL], BASIC_CATALOG_ID)).toBe(false);
});

it('finds the built-in catalogs by their aliases', () => {
  const registry = createDefaultCatalogs();
  expect(registry.get(COPILOTKIT_BASIC)?.catalogId).toBe(BASIC_CATALOG_ID);
  expect(registry.has(COPILOTKIT_MINIMAL)).toBe(true);
});
