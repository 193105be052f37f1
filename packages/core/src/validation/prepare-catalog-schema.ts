import { A2uiError } from '../errors/a2ui-error.js';
import { isRecord, setOwn } from '../protocol/guards.js';
import { type SchemaFamily, V0_9_SCHEMA_FAMILY } from './schema-family.js';

/** Options of {@link prepareCatalogSchema}. */
export interface PrepareCatalogSchemaOptions {
  /**
   * The catalog id to register the catalog under.
   * @default the schema's `catalogId`, else its `$id`
   */
  catalogId?: string;
  /**
   * The schema set the catalog is validated within: its alias `$id`, and for v1.0 the wrapping of
   * each component with `ComponentCommon` and `unevaluatedProperties: false`.
   * @default V0_9_SCHEMA_FAMILY
   */
  family?: SchemaFamily;
}

/** A catalog schema ready to be registered with Ajv beside `common_types.json`. */
export interface PreparedCatalogSchema {
  /** The id messages name in `createSurface.catalogId`. */
  catalogId: string;
  /**
   * A shallow copy whose `$id` is the family's alias (`https://a2ui.org/specification/v0_9/catalog.json`
   * or `…/v1_0/catalog.json`).
   */
  schema: Record<string, unknown>;
  /** The schema set it was prepared for. */
  family: SchemaFamily;
  /** Keys of `components`, in catalog order. */
  componentTypes: string[];
  /** Keys of `functions`, in catalog order. */
  functionNames: string[];
}

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

const escapePointerSegment = (segment: string): string =>
  encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));

/**
 * v1.0 component definitions, each closed the way `agent_to_renderer.json#/$defs/Component` closes
 * it inside a message: with `ComponentCommon` and `unevaluatedProperties: false`. A component then
 * gets the message schema's verdict when validated alone.
 */
function wrapComponents(
  components: Record<string, unknown>,
  family: SchemaFamily,
): Record<string, unknown> {
  const wrapped: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(components)) {
    setOwn(wrapped, name, {
      allOf: [{ $ref: `${family.commonTypesId}#/$defs/ComponentCommon` }, definition],
      unevaluatedProperties: false,
    });
  }
  return wrapped;
}

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
  const family = options.family ?? V0_9_SCHEMA_FAMILY;
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
    $id: family.catalogAliasId,
    $defs: defs,
  };
  if (family.wrapsComponents) schema.components = wrapComponents(components, family);
  if (schema.$schema !== undefined && schema.$schema !== DRAFT_2020_12) delete schema.$schema;
  return { catalogId, schema, componentTypes, functionNames, family };
}

/**
 * Absolute `$ref` of a component schema inside the aliased catalog, e.g.
 * `https://a2ui.org/specification/v0_9/catalog.json#/components/Text`.
 *
 * @param componentType - A key of the catalog's `components`.
 * @param family - The schema set the catalog was prepared for; @default V0_9_SCHEMA_FAMILY
 * @returns The ref, with the name escaped as a JSON Pointer segment and URI-encoded.
 *
 * @example
 * ```ts
 * ajv.getSchema(componentSchemaRef('Text'));
 * ```
 */
export function componentSchemaRef(
  componentType: string,
  family: SchemaFamily = V0_9_SCHEMA_FAMILY,
): string {
  return `${family.catalogAliasId}#/components/${escapePointerSegment(componentType)}`;
}
