/**
 * Run-time compilation of a v0.8 validator for a custom v0.8 catalog (needs `eval`: Node or a
 * page without a strict CSP).
 */
import { createA2uiAjv } from '../../validation/create-ajv.js';
import serverToClient from '../../validation/schemas/v0_8/server_to_client.json' with {
  type: 'json',
};
import { buildV08CatalogSchema, type V08Catalog } from './v08-schemas.js';
import { createV08Validator, type V08Validator } from './v08-validator.js';

/**
 * Compiles a validator that checks v0.8 messages against `catalog`: each `surfaceUpdate`
 * component wrapper must name exactly one of its components and match that component's schema;
 * `beginRendering.styles` must match its styles.
 *
 * @param catalog - components (and styles) as JSON Schemas, as in `catalog_description_schema.json`
 * @throws Ajv's error when a component schema does not compile
 *
 * @example
 * ```ts
 * const validator = compileV08CatalogValidator({ components: { Chart: { type: 'object' } } });
 * validator.validateServerMessage({ beginRendering: { surfaceId: 's', root: 'root' } }); // []
 * ```
 */
export function compileV08CatalogValidator(catalog: V08Catalog): V08Validator {
  const schema = buildV08CatalogSchema(
    serverToClient as Record<string, unknown>,
    catalog,
    'https://a2ui.org/specification/v0_8/server_to_client_with_custom_catalog.json',
  );
  // The catalog schema holds each component wrapper to exactly one key itself.
  return createV08Validator(createA2uiAjv().compile(schema), true);
}
