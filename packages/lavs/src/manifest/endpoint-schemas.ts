/**
 * Compiles an endpoint's `schema.input` / `schema.output` once, when the manifest is loaded.
 * `$ref: "#/types/Todo"` points into the manifest's `types` (spec §4.4): each schema is compiled
 * with the manifest's `types` beside it (as a keyword Ajv is told to ignore), so the reference
 * resolves inside the compiled document itself.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './manifest-types.js';
import { type SchemaIssue, toSchemaIssues } from './schema-issues.js';

/** A compiled endpoint schema: the issues of a value, none when it conforms. */
export type SchemaCheck = (value: unknown) => SchemaIssue[];

/** Compiles JSON Schemas that may refer to one manifest's `types`. */
export interface EndpointSchemaCompiler {
  /** @throws Ajv's error when the schema is not a valid JSON Schema or a `$ref` does not resolve */
  compile(schema: JsonSchema): SchemaCheck;
}

/**
 * A compiler for the schemas of one manifest. `useDefaults` fills `default`s into the input the
 * handler gets (the spec's `priority: { default: 0 }`); `strict: false` accepts the annotations
 * and vendor keywords third-party schemas carry; first error only, so a hostile input cannot make
 * the validator collect thousands.
 *
 * @param types - the manifest's `types`
 */
export function createEndpointSchemaCompiler(
  types: Record<string, JsonSchema> = {},
): EndpointSchemaCompiler {
  const ajv = new Ajv({ strict: false, allErrors: false, useDefaults: true });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'types' });
  return {
    compile(schema) {
      const document = typeof schema === 'boolean' ? (schema ? {} : { not: {} }) : schema;
      const validate: ValidateFunction = ajv.compile({ ...document, types });
      return (value) => (validate(value) ? [] : toSchemaIssues(validate.errors));
    },
  };
}
