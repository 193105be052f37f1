import { A2uiError } from '../errors/a2ui-error.js';
import {
  type CatalogValidator,
  createPrecompiledCatalogValidator,
  type StandaloneValidateFunction,
} from './catalog-validator.js';
import { createCatalogAjv } from './create-ajv.js';
import { schemas as commonSchemas } from './generated/common.js';
import { componentSchemaRef, prepareCatalogSchema } from './prepare-catalog-schema.js';
import { CATALOG_ALIAS_SCHEMA_ID, SERVER_TO_CLIENT_SCHEMA_ID } from './schema-ids.js';

/** Options of {@link compileCatalogValidator}. */
export interface CompileCatalogValidatorOptions {
  /**
   * Catalog id to register the validator under.
   * @default the schema's `catalogId`, else its `$id`
   */
  catalogId?: string;
  /**
   * Further schema documents the catalog `$ref`s by absolute `$id` (besides `common_types.json`).
   * @default []
   */
  references?: readonly object[];
}

/**
 * Compiles a custom catalog into a {@link CatalogValidator} at run time, registering it under the
 * aliased `$id` `https://a2ui.org/specification/v0_9/catalog.json` beside `common_types.json` and
 * `server_to_client.json`, as the official runner does (digest §10.3). Component schemas must
 * reference common types by their absolute `$id`
 * (`https://a2ui.org/specification/v0_9/common_types.json#/$defs/DynamicString`).
 *
 * Needs `eval`: Ajv compiles with `new Function`, which a page whose Content-Security-Policy lacks
 * `'unsafe-eval'` refuses. For such pages precompile with `generateCatalogValidatorModule()` (Node,
 * build time) and load the result with `createPrecompiledCatalogValidator()`.
 *
 * @param catalogSchema - The catalog document (`catalogId`, `components`, `functions`, `$defs`).
 * @param options - See {@link CompileCatalogValidatorOptions}.
 * @returns A validator for the catalog; register it with `registry.register(validator)`.
 * @throws A2uiError `VALIDATION_FAILED` when the catalog has no `components` or id, or a schema
 *   does not compile (bad keyword value, unresolvable `$ref`); the Ajv error is the `cause`.
 *
 * @example
 * ```ts
 * const validator = compileCatalogValidator({
 *   catalogId: 'https://example.com/catalogs/charts/v1.json',
 *   components: { Chart: { type: 'object', allOf: [
 *     { $ref: 'https://a2ui.org/specification/v0_9/common_types.json#/$defs/ComponentCommon' },
 *     { properties: { component: { const: 'Chart' } }, required: ['component'] },
 *   ], unevaluatedProperties: false } },
 * });
 * defaultValidatorRegistry.register(validator);
 * ```
 */
export function compileCatalogValidator(
  catalogSchema: object,
  options: CompileCatalogValidatorOptions = {},
): CatalogValidator {
  const prepared = prepareCatalogSchema(
    catalogSchema,
    options.catalogId === undefined ? {} : { catalogId: options.catalogId },
  );
  try {
    const ajv = createCatalogAjv({
      commonTypes: commonSchemas.commonTypes,
      references: options.references,
      catalog: prepared.schema,
      serverToClient: commonSchemas.serverToClient,
    });
    const compile = (ref: string): StandaloneValidateFunction => {
      const validate = ajv.getSchema(ref);
      if (!validate) throw new Error(`No schema at ${ref}`);
      return validate;
    };
    const components: Record<string, StandaloneValidateFunction> = {};
    for (const type of prepared.componentTypes)
      components[type] = compile(componentSchemaRef(type));
    return createPrecompiledCatalogValidator({
      catalogId: prepared.catalogId,
      catalogSchema: prepared.schema,
      serverMessage: compile(SERVER_TO_CLIENT_SCHEMA_ID),
      theme: compile(`${CATALOG_ALIAS_SCHEMA_ID}#/$defs/theme`),
      components,
    });
  } catch (error) {
    if (A2uiError.isInstance(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new A2uiError(
      'VALIDATION_FAILED',
      `Catalog "${prepared.catalogId}" does not compile: ${reason}`,
      {
        cause: error,
      },
    );
  }
}
