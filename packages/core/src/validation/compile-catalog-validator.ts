import { A2uiError } from '../errors/a2ui-error.js';
import {
  type CatalogValidator,
  createPrecompiledCatalogValidator,
  type StandaloneValidateFunction,
} from './catalog-validator.js';
import { createCatalogAjv } from './create-ajv.js';
import { familySchemas } from './family-schemas.js';
import { componentSchemaRef, prepareCatalogSchema } from './prepare-catalog-schema.js';
import { schemaFamilyOf } from './schema-family.js';

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
  /**
   * The protocol version the catalog is written for (`"v1.0"`, `"1.0"`, `"v0.9"`): which
   * `common_types.json` and message schema it is validated with.
   * @default the schema's `protocolVersion`; else v1.0 when it `$ref`s a v1.0 schema; else v0.9
   */
  protocolVersion?: string;
}

/**
 * Compiles a custom catalog into a {@link CatalogValidator} at run time, registering it under the
 * aliased `$id` `https://a2ui.org/specification/v0_9/catalog.json` beside `common_types.json` and
 * `server_to_client.json`, as the official runner does (digest §10.3). Component schemas must
 * reference common types by their absolute `$id`
 * (`https://a2ui.org/specification/v0_9/common_types.json#/$defs/DynamicString`).
 *
 * A v1.0 catalog (`protocolVersion: "1.0"`, or one referencing
 * `https://a2ui.org/specification/v1_0/common_types.json`) is registered as
 * `https://a2ui.org/specification/v1_0/catalog.json` beside v1.0 `common_types.json` and
 * `agent_to_renderer.json` instead, and each component is closed as v1.0's message schema closes
 * it (`ComponentCommon`, `unevaluatedProperties: false`).
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
  const family = schemaFamilyOf(catalogSchema, options.protocolVersion);
  const prepared = prepareCatalogSchema(catalogSchema, {
    family,
    ...(options.catalogId === undefined ? {} : { catalogId: options.catalogId }),
  });
  try {
    const documents = familySchemas(family);
    const ajv = createCatalogAjv({
      commonTypes: documents.commonTypes,
      references: options.references,
      catalog: prepared.schema,
      serverToClient: documents.serverMessage,
    });
    const compile = (ref: string): StandaloneValidateFunction => {
      const validate = ajv.getSchema(ref);
      if (!validate) throw new Error(`No schema at ${ref}`);
      return validate;
    };
    const components: Record<string, StandaloneValidateFunction> = {};
    for (const type of prepared.componentTypes)
      components[type] = compile(componentSchemaRef(type, family));
    return createPrecompiledCatalogValidator({
      catalogId: prepared.catalogId,
      catalogSchema: prepared.schema,
      serverMessage: compile(family.serverMessageId),
      theme: compile(`${family.catalogAliasId}#/$defs/theme`),
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
