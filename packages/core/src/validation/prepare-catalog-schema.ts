import { A2uiError } from '../errors/a2ui-error.js';
import { isRecord } from '../protocol/guards.js';
import { CATALOG_ALIAS_SCHEMA_ID } from './schema-ids.js';

/** Options of {@link prepareCatalogSchema}. */
export interface PrepareCatalogSchemaOptions {
  /**
   * The catalog id to register the catalog under.
   * @default the schema's `catalogId`, else its `$id`
   */
  catalogId?: string;
}

/** A catalog schema ready to be registered with Ajv beside `common_types.json`. */
export interface PreparedCatalogSchema {
  /** The id messages name in `createSurface.catalogId`. */
  catalogId: string;
  /** A shallow copy whose `$id` is the alias `https://a2ui.org/specification/v0_9/catalog.json`. */
  schema: Record<string, unknown>;
  /** Keys of `components`, in catalog order. */
  componentTypes: string[];
  /** Keys of `functions`, in catalog order. */
  functionNames: string[];
}

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

const escapePointerSegment = (segment: string): string =>
  encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));

/**
 * Checks a catalog schema's outline and aliases its `$id` the way the official test runner does
 * (digest §10.3), so that `server_to_client.json`'s `catalog.json#/$defs/anyComponent` resolves to
 * it. Catalogs are meant to expose `$defs/anyComponent`, `$defs/anyFunction` and `$defs/theme`
 * (digest §10.2); when one is missing it is derived: `anyComponent` as a `oneOf` over
 * `components`, `anyFunction` over `functions` (no functions: every function call is rejected),
 * `theme` as any object. A `$schema` other than draft 2020-12 is dropped, because every v0.9
 * schema is validated as draft 2020-12.
 *
 * @param catalogSchema - A catalog document: `{catalogId, components, functions?, $defs?}`.
 * @returns The aliased copy and the catalog's component and function names.
 * @throws A2uiError `VALIDATION_FAILED` when the schema is not an object, has no `components`
 *   object, or no catalog id can be found.
 *
 * @example
 * ```ts
 * const { catalogId, schema } = prepareCatalogSchema(myCatalog);
 * ajv.addSchema(schema);
 * ```
 */
export function prepareCatalogSchema(
  catalogSchema: object,
  options: PrepareCatalogSchemaOptions = {},
): PreparedCatalogSchema {
  if (!isRecord(catalogSchema)) {
    throw new A2uiError('VALIDATION_FAILED', 'A catalog schema must be a JSON object.');
  }
  const components = catalogSchema.components;
  if (!isRecord(components)) {
    throw new A2uiError('VALIDATION_FAILED', 'A catalog schema must have a "components" object.', {
      path: '/components',
    });
  }
  const catalogId =
    options.catalogId ??
    (typeof catalogSchema.catalogId === 'string' ? catalogSchema.catalogId : undefined) ??
    (typeof catalogSchema.$id === 'string' ? catalogSchema.$id : undefined);
  if (catalogId === undefined || catalogId === '') {
    throw new A2uiError(
      'VALIDATION_FAILED',
      'A catalog schema needs a "catalogId" (or pass options.catalogId).',
      { path: '/catalogId' },
    );
  }
  const componentTypes = Object.keys(components);
  const functions = isRecord(catalogSchema.functions) ? catalogSchema.functions : {};
  const functionNames = Object.keys(functions);
  const defs = isRecord(catalogSchema.$defs) ? { ...catalogSchema.$defs } : {};
  if (defs.anyComponent === undefined) {
    defs.anyComponent =
      componentTypes.length === 0
        ? false
        : {
            oneOf: componentTypes.map((name) => ({
              $ref: `#/components/${escapePointerSegment(name)}`,
            })),
            discriminator: { propertyName: 'component' },
          };
  }
  if (defs.anyFunction === undefined) {
    defs.anyFunction =
      functionNames.length === 0
        ? false
        : {
            oneOf: functionNames.map((name) => ({
              $ref: `#/functions/${escapePointerSegment(name)}`,
            })),
          };
  }
  if (defs.theme === undefined) defs.theme = { type: 'object' };

  const schema: Record<string, unknown> = {
    ...catalogSchema,
    $id: CATALOG_ALIAS_SCHEMA_ID,
    $defs: defs,
  };
  if (schema.$schema !== undefined && schema.$schema !== DRAFT_2020_12) delete schema.$schema;
  return { catalogId, schema, componentTypes, functionNames };
}

/**
 * Absolute `$ref` of a component schema inside the aliased catalog, e.g.
 * `https://a2ui.org/specification/v0_9/catalog.json#/components/Text`.
 *
 * @param componentType - A key of the catalog's `components`.
 * @returns The ref, with the name escaped as a JSON Pointer segment and URI-encoded.
 *
 * @example
 * ```ts
 * ajv.getSchema(componentSchemaRef('Text'));
 * ```
 */
export function componentSchemaRef(componentType: string): string {
  return `${CATALOG_ALIAS_SCHEMA_ID}#/components/${escapePointerSegment(componentType)}`;
}
