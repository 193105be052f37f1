import { A2uiError } from '../errors/a2ui-error.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { isRecord } from '../protocol/guards.js';
import { type CatalogValidator, envelopeIssues, explainFailure } from './catalog-validator.js';
import { diagnoseSchema, type FormatDefinition, type JsonSchema } from './diagnose-schema.js';
import { DEFAULT_MAX_DEPTH, findJsonViolation } from './find-depth-violation.js';
import * as common from './generated/common.js';
import { validatorRuntime } from './generated/runtime.js';
import {
  CLIENT_CAPABILITIES_SCHEMA_ID,
  CLIENT_DATA_MODEL_SCHEMA_ID,
  CLIENT_TO_SERVER_SCHEMA_ID,
  SERVER_CAPABILITIES_SCHEMA_ID,
} from './schema-ids.js';
import type { ValidationIssue } from './validation-issue.js';
import {
  basicCatalogValidator,
  defaultValidatorRegistry,
  type ValidatorRegistry,
} from './validator-registry.js';

/** Options of {@link validateServerMessage}. */
export interface ValidateServerMessageOptions {
  /**
   * Catalog to validate against, e.g. the catalog of the surface the message targets.
   * @default the message's `createSurface.catalogId`, else the basic catalog
   */
  catalogId?: string;
  /**
   * Where catalog validators are looked up.
   * @default defaultValidatorRegistry
   */
  registry?: ValidatorRegistry;
  /**
   * Deepest allowed nesting of arrays/objects, checked before schema validation.
   * @default 64
   */
  maxDepth?: number;
}

/** Options of the catalog-independent validators. */
export interface ValidateOptions {
  /**
   * Deepest allowed nesting of arrays/objects, checked before schema validation. It counts what
   * the value carries, not its envelope, so that whatever a client's `DataModel` with the same
   * `maxDepth` holds passes: a data model of one surface (`validateClientDataModel`), an action
   * context value (`validateClientMessage`).
   * @default 64
   */
  maxDepth?: number;
}

/**
 * Levels of envelope around what a client message carries: the message, its `action` (or
 * `error`) object and the action's `context` object.
 */
const CLIENT_MESSAGE_ENVELOPE_DEPTH = 3;
/** Levels of envelope around a surface's data model: `a2uiClientDataModel` and its `surfaces`. */
const CLIENT_DATA_MODEL_ENVELOPE_DEPTH = 2;

const formats = validatorRuntime.fullFormats as Readonly<Record<string, FormatDefinition>>;

const clientDocuments = new Map<string, JsonSchema>([
  [CLIENT_TO_SERVER_SCHEMA_ID, common.schemas.clientToServer],
  [CLIENT_CAPABILITIES_SCHEMA_ID, common.schemas.clientCapabilities],
  [CLIENT_DATA_MODEL_SCHEMA_ID, common.schemas.clientDataModel],
  [SERVER_CAPABILITIES_SCHEMA_ID, common.schemas.serverCapabilities],
]);

function diagnose(
  schema: unknown,
  data: unknown,
  path: string,
  baseUri: string,
): ValidationIssue[] | undefined {
  return diagnoseSchema((schema ?? true) as JsonSchema, data, {
    documents: clientDocuments,
    baseUri,
    path,
    formats,
  });
}

function resolveCatalog(
  message: unknown,
  options: ValidateServerMessageOptions,
): {
  validator: CatalogValidator;
  ignoreTheme: boolean;
} {
  const registry = options.registry ?? defaultValidatorRegistry;
  if (options.catalogId !== undefined) {
    const validator = registry.get(options.catalogId);
    if (!validator) {
      throw new A2uiError(
        'CATALOG_NOT_FOUND',
        `No validator is registered for catalog "${options.catalogId}". Registered: ${registry.catalogIds().join(', ') || 'none'}.`,
        { data: { catalogId: options.catalogId } },
      );
    }
    return { validator, ignoreTheme: false };
  }
  const createSurface = isRecord(message) ? message.createSurface : undefined;
  const requested =
    isRecord(createSurface) && typeof createSurface.catalogId === 'string'
      ? createSurface.catalogId
      : undefined;
  const validator = requested === undefined ? undefined : registry.get(requested);
  if (validator) return { validator, ignoreTheme: false };
  // An unknown catalog is the processor's CATALOG_NOT_FOUND (spec §2.1), not a schema error: check
  // everything that does not depend on the catalog, i.e. all but the theme.
  return {
    validator: registry.get(BASIC_CATALOG_ID) ?? basicCatalogValidator,
    ignoreTheme: requested !== undefined,
  };
}

/**
 * Validates one server→client message (spec §2, `server_to_client.json`) against a catalog's
 * components, functions and theme, after checking nesting depth iteratively.
 *
 * A `createSurface` naming a catalog that is not registered is checked without its `theme` (which
 * only that catalog can judge); reporting the unknown catalog is the processor's job.
 *
 * @param message - A parsed JSON value.
 * @param options - See {@link ValidateServerMessageOptions}.
 * @returns `[]` when valid, else the most specific issues, with JSON Pointers into `message`.
 * @throws A2uiError `CATALOG_NOT_FOUND` when `options.catalogId` is not in the registry.
 *
 * @example
 * ```ts
 * validateServerMessage({ version: 'v0.9', updateComponents: { surfaceId: 's', components: [
 *   { id: 'root', component: 'Text', text: 42 },
 * ] } });
 * // [{ path: '/updateComponents/components/0/text', keyword: 'type',
 * //    message: 'Expected a string, a {"path"} binding or a {"call"} function call, got integer.' }]
 * ```
 */
export function validateServerMessage(
  message: unknown,
  options: ValidateServerMessageOptions = {},
): ValidationIssue[] {
  const { validator, ignoreTheme } = resolveCatalog(message, options);
  const issues = validator.validateServerMessage(message, {
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
  });
  return ignoreTheme
    ? issues.filter(
        (issue) =>
          issue.path !== '/createSurface/theme' && !issue.path.startsWith('/createSurface/theme/'),
      )
    : issues;
}

/**
 * Validates one client→server message (spec §3, `client_to_server.json`): `action` or `error`.
 *
 * @param message - A parsed JSON value.
 * @param options - See {@link ValidateOptions}; `maxDepth` bounds each `action.context` value
 *   (the message, `action` and `context` levels are not counted).
 * @returns `[]` when valid, else issues with JSON Pointers into `message`.
 *
 * @example
 * ```ts
 * validateClientMessage({ version: 'v0.9', action: { name: 'submit', surfaceId: 's',
 *   sourceComponentId: 'b', timestamp: '2026-01-15T12:00:00Z', context: {} } }); // []
 * ```
 */
export function validateClientMessage(
  message: unknown,
  options: ValidateOptions = {},
): ValidationIssue[] {
  const tooDeep = findJsonViolation(
    message,
    (options.maxDepth ?? DEFAULT_MAX_DEPTH) + CLIENT_MESSAGE_ENVELOPE_DEPTH,
  );
  if (tooDeep) return [tooDeep];
  if (common.clientMessage(message)) return [];
  const errors = common.clientMessage.errors;
  const { issues, kind } = envelopeIssues(message, ['action', 'error'], 'client message', {
    userAction: 'action',
  });
  if (kind === undefined) return explainFailure(issues, errors, message);
  const properties = isRecord(common.schemas.clientToServer.properties)
    ? common.schemas.clientToServer.properties
    : {};
  const payload = diagnose(
    properties[kind],
    (message as Record<string, unknown>)[kind],
    `/${kind}`,
    CLIENT_TO_SERVER_SCHEMA_ID,
  );
  return explainFailure([...issues, ...(payload ?? [])], errors, message);
}

function validateWith(
  validate: typeof common.clientCapabilities,
  schema: { readonly [keyword: string]: unknown },
  baseUri: string,
  value: unknown,
  maxDepth: number,
): ValidationIssue[] {
  const tooDeep = findJsonViolation(value, maxDepth);
  if (tooDeep) return [tooDeep];
  if (validate(value)) return [];
  const errors = validate.errors;
  return explainFailure(diagnose(schema, value, '', baseUri), errors, value);
}

/**
 * Validates `a2uiClientCapabilities` metadata (spec §4.1, `client_capabilities.json`):
 * `{"v0.9": {supportedCatalogIds, inlineCatalogs?}}`.
 *
 * @param value - A parsed JSON value.
 * @param options - See {@link ValidateOptions}.
 * @returns `[]` when valid, else issues with JSON Pointers into `value`.
 *
 * @example
 * ```ts
 * validateClientCapabilities({ 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } }); // []
 * ```
 */
export function validateClientCapabilities(
  value: unknown,
  options: ValidateOptions = {},
): ValidationIssue[] {
  return validateWith(
    common.clientCapabilities,
    common.schemas.clientCapabilities,
    CLIENT_CAPABILITIES_SCHEMA_ID,
    value,
    options.maxDepth ?? DEFAULT_MAX_DEPTH,
  );
}

/**
 * Validates `a2uiClientDataModel` metadata (spec §4.2, `client_data_model.json`):
 * `{version: "v0.9", surfaces: {<surfaceId>: {…}}}`.
 *
 * @param value - A parsed JSON value.
 * @param options - See {@link ValidateOptions}; `maxDepth` bounds each surface's data model as
 *   `DataModel` counts it (the metadata object and `surfaces` are not counted).
 * @returns `[]` when valid, else issues with JSON Pointers into `value`.
 *
 * @example
 * ```ts
 * validateClientDataModel({ version: 'v0.9', surfaces: { s1: { name: 'Ada' } } }); // []
 * ```
 */
export function validateClientDataModel(
  value: unknown,
  options: ValidateOptions = {},
): ValidationIssue[] {
  return validateWith(
    common.clientDataModel,
    common.schemas.clientDataModel,
    CLIENT_DATA_MODEL_SCHEMA_ID,
    value,
    (options.maxDepth ?? DEFAULT_MAX_DEPTH) + CLIENT_DATA_MODEL_ENVELOPE_DEPTH,
  );
}

/**
 * Validates server capabilities (spec §4.3, `server_capabilities.json`):
 * `{"v0.9": {supportedCatalogIds?, acceptsInlineCatalogs?}}`.
 *
 * @param value - A parsed JSON value.
 * @param options - See {@link ValidateOptions}.
 * @returns `[]` when valid, else issues with JSON Pointers into `value`.
 *
 * @example
 * ```ts
 * validateServerCapabilities({ 'v0.9': { acceptsInlineCatalogs: true } }); // []
 * ```
 */
export function validateServerCapabilities(
  value: unknown,
  options: ValidateOptions = {},
): ValidationIssue[] {
  return validateWith(
    common.serverCapabilities,
    common.schemas.serverCapabilities,
    SERVER_CAPABILITIES_SCHEMA_ID,
    value,
    options.maxDepth ?? DEFAULT_MAX_DEPTH,
  );
}
