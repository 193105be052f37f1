/**
 * Validation of v0.8 messages with the precompiled official schemas (`generated/v0-8.js`), worded
 * like every other validation issue in core.
 */
import { isRecord } from '../../protocol/guards.js';
import {
  ajvErrorsToIssues,
  type SchemaErrorObject,
} from '../../validation/ajv-errors-to-issues.js';
import { v08ValidatorModule } from '../../validation/builtin-validator-modules.js';
import type { StandaloneValidateFunction } from '../../validation/catalog-validator.js';
import { valueAtPointer } from '../../validation/quote-value.js';
import type { ValidationIssue } from '../../validation/validation-issue.js';

/** Validates v0.8 messages; see {@link v08StandardValidator} and `compileV08CatalogValidator`. */
export interface V08Validator {
  /** Issues of one v0.8 server→client message; `[]` when it is valid. */
  validateServerMessage(message: unknown): ValidationIssue[];
  /** Issues of one v0.8 client→server message (`userAction` or `error`). */
  validateClientMessage(message: unknown): ValidationIssue[];
}

/**
 * Runs `validate` and words its first error: ours, then in parentheses the wording of the
 * reference (Python `jsonschema`) validator, which the v0.8 conformance cases match on.
 *
 * @param schemaChecksWrappers - see {@link createV08Validator}
 */
export function runV08Validator(
  validate: StandaloneValidateFunction,
  message: unknown,
  schemaChecksWrappers = false,
): ValidationIssue[] {
  if (validate(message)) return schemaChecksWrappers ? [] : componentKeyIssues(message);
  const errors = validate.errors ?? [];
  const issues = ajvErrorsToIssues(errors, message);
  const official = errors.map((error) => referenceWording(error, message)).find(Boolean);
  if (!official) return issues;
  return issues.map((issue) => ({ ...issue, message: `${issue.message} (${official})` }));
}

/** Python's `repr` of a JSON value, as `jsonschema` quotes instances. */
function pythonRepr(value: unknown): string {
  if (typeof value === 'string')
    return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (isRecord(value)) {
    const entries = Object.entries(value).map(
      ([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`,
    );
    return `{${entries.join(', ')}}`;
  }
  return String(value);
}

/** `jsonschema`'s message for one Ajv error, where both name the same check. */
function referenceWording(error: SchemaErrorObject, message: unknown): string | undefined {
  const value = valueAtPointer(message, error.instancePath);
  const { params } = error;
  switch (error.keyword) {
    case 'type':
      return `${pythonRepr(value)} is not of type ${pythonRepr(params.type)}`;
    case 'required':
      return `${pythonRepr(params.missingProperty)} is a required property`;
    case 'enum':
      return `${pythonRepr(value)} is not one of ${pythonRepr(params.allowedValues)}`;
    case 'additionalProperties':
      return `Additional properties are not allowed (${pythonRepr(params.additionalProperty)} was unexpected)`;
    default:
      return undefined;
  }
}

/**
 * The schema says a component wrapper "MUST contain exactly one key" but does not enforce it in
 * the catalog-agnostic schema; a wrapper with zero or two types cannot be upgraded.
 */
function componentKeyIssues(message: unknown): ValidationIssue[] {
  if (!isRecord(message) || !isRecord(message.surfaceUpdate)) return [];
  const components = message.surfaceUpdate.components;
  if (!Array.isArray(components)) return [];
  // Indexed loop and a key count that stops at two: this runs on every valid `surfaceUpdate`.
  for (let index = 0; index < components.length; index++) {
    const component: unknown = components[index];
    const wrapper = isRecord(component) ? component.component : undefined;
    if (isRecord(wrapper) && hasOneKey(wrapper)) continue;
    const count = isRecord(wrapper) ? Object.keys(wrapper).length : 0;
    return [
      {
        path: `/surfaceUpdate/components/${index}/component`,
        message: `A v0.8 component holds exactly one component type, e.g. {"Text": {…}}; found ${count}.`,
        keyword: 'maxProperties',
      },
    ];
  }
  return [];
}

/** Whether `value` has exactly one own enumerable key, without listing its keys. */
function hasOneKey(value: Record<string, unknown>): boolean {
  let count = 0;
  for (const key in value) {
    if (Object.hasOwn(value, key) && ++count > 1) return false;
  }
  return count === 1;
}

/**
 * A {@link V08Validator} from standalone validate functions.
 *
 * @param schemaChecksWrappers - `serverMessage`'s schema itself holds every component wrapper to
 *   one key (a catalog schema of `buildV08CatalogSchema`: `minProperties`/`maxProperties` 1), so
 *   the separate check after a pass is skipped (it runs on every valid `surfaceUpdate`)
 * @default false
 */
export function createV08Validator(
  serverMessage: StandaloneValidateFunction,
  schemaChecksWrappers = false,
): V08Validator {
  return {
    validateServerMessage: (message) =>
      runV08Validator(serverMessage, message, schemaChecksWrappers),
    validateClientMessage: (message) => runV08Validator(lazyClientMessage, message),
  };
}

/**
 * A validate function of the v0.8 module that loads on first need (`generated/v0-8.js`, a chunk
 * of its own): throws `MODULE_NOT_LOADED` before it has (the processor then waits for it).
 */
function lazyV08Validate(
  name: 'serverMessage' | 'standardServerMessage' | 'clientMessage',
): StandaloneValidateFunction {
  const validate: StandaloneValidateFunction = (data) => {
    const compiled = v08ValidatorModule.get()[name];
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  return validate;
}

const lazyClientMessage = /* @__PURE__ */ lazyV08Validate('clientMessage');

/** v0.8 validator for surfaces of any catalog: components' inner properties are not checked. */
export const v08GenericValidator: V08Validator = /* @__PURE__ */ createV08Validator(
  lazyV08Validate('serverMessage'),
);

/** v0.8 validator for the v0.8 standard catalog (`standard_catalog_definition.json`), precompiled. */
export const v08StandardValidator: V08Validator = /* @__PURE__ */ createV08Validator(
  lazyV08Validate('standardServerMessage'),
  true,
);
