import { appendPointer, jsonTypeOf, quoteValue, valueAtPointer } from './quote-value.js';
import type { ValidationIssue } from './validation-issue.js';

/** The part of an Ajv `ErrorObject` this module reads (kept structural so no Ajv type leaks). */
export interface SchemaErrorObject {
  /** JSON Pointer to the failing value. */
  instancePath: string;
  /** JSON Pointer into the schema, relative to the schema document that failed. */
  schemaPath: string;
  /** The failing keyword. */
  keyword: string;
  /** Keyword-specific details (`missingProperty`, `additionalProperty`, `allowedValues`, …). */
  params: Record<string, unknown>;
  /** Ajv's English message, e.g. `must be string`. */
  message?: string;
}

const COMBINATORS = new Set(['oneOf', 'anyOf', 'allOf', 'if', 'then', 'else', 'discriminator']);

function toIssue(error: SchemaErrorObject, data: unknown): ValidationIssue {
  const { instancePath: path, keyword, params } = error;
  switch (keyword) {
    case 'required': {
      const name = String(params.missingProperty);
      return {
        path: appendPointer(path, name),
        message: `Missing required property "${name}".`,
        keyword,
      };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = String(params.additionalProperty ?? params.unevaluatedProperty);
      return { path: appendPointer(path, name), message: `Unknown property "${name}".`, keyword };
    }
    case 'type':
      return {
        path,
        message: `Expected ${String(params.type)}, got ${jsonTypeOf(valueAtPointer(data, path))}.`,
        keyword,
      };
    case 'const':
      return {
        path,
        message: `Expected ${quoteValue(params.allowedValue)}, got ${quoteValue(valueAtPointer(data, path))}.`,
        keyword,
      };
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues)
        ? params.allowedValues.map(quoteValue).join(', ')
        : '';
      return {
        path,
        message: `Expected one of ${allowed}, got ${quoteValue(valueAtPointer(data, path))}.`,
        keyword,
      };
    }
    default: {
      const text = error.message ?? `failed "${keyword}"`;
      return { path, message: `Value ${text}.`, keyword };
    }
  }
}

/**
 * Turns a raw Ajv error list into issues, keeping only the deepest ones (the most specific) and
 * dropping combinator summaries such as "must match exactly one schema in oneOf" when anything
 * more specific exists. The fallback for when the schema-guided diagnosis has nothing to say.
 *
 * @param errors - `validate.errors` of an Ajv (or Ajv standalone) validator.
 * @param data - The validated value, for quoting what was found.
 * @returns At least one issue when `errors` is non-empty.
 *
 * @example
 * ```ts
 * if (!validate(value)) console.log(ajvErrorsToIssues(validate.errors ?? [], value));
 * ```
 */
export function ajvErrorsToIssues(
  errors: readonly SchemaErrorObject[],
  data: unknown,
): ValidationIssue[] {
  if (errors.length === 0) return [];
  const specific = errors.filter((error) => !COMBINATORS.has(error.keyword));
  const pool = (specific.length > 0 ? specific : errors).map((error) => toIssue(error, data));
  const depth = (issue: ValidationIssue): number =>
    issue.path === '' ? 0 : issue.path.split('/').length;
  const deepest = Math.max(...pool.map(depth));
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const issue of pool) {
    if (depth(issue) !== deepest) continue;
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}
