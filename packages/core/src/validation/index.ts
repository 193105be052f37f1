/**
 * Schema validation of A2UI v0.9 messages and metadata (digest §1–§6, §10).
 *
 * Browser-safe: the basic, minimal and catalog-independent validators are precompiled (Ajv
 * standalone) and need no `eval`. Run-time compilation and the ahead-of-time generator for custom
 * catalogs import the Ajv compiler, so they live in the `@a2ui-ts/core/compile` entry point.
 */

export type { SchemaErrorObject } from './ajv-errors-to-issues.js';
export { ajvErrorsToIssues } from './ajv-errors-to-issues.js';
export { loadValidators } from './builtin-validator-modules.js';
export type {
  CatalogValidateOptions,
  CatalogValidator,
  ComponentCheck,
  PrecompiledCatalogModule,
  StandaloneValidateFunction,
} from './catalog-validator.js';
export { createPrecompiledCatalogValidator } from './catalog-validator.js';
export {
  DEFAULT_MAX_DEPTH,
  findDepthViolation,
  findJsonViolation,
} from './find-depth-violation.js';
/** Run-time helpers that precompiled validator modules import (`generateCatalogValidatorModule`). */
export { validatorRuntime } from './generated/runtime.js';
export {
  createLazyCatalogValidator,
  type LazyCatalogValidatorOptions,
} from './lazy-catalog-validator.js';
export { LazyModule, ModuleNotLoadedError } from './lazy-module.js';
export {
  type JsonLine,
  type ParseJsonLinesOptions,
  parseJsonLines,
  toMessageList,
} from './message-list.js';
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  type ParseClientMessageOptions,
  type ParseLimits,
  type ParseServerMessageOptions,
  parseClientMessage,
  parseServerMessage,
  safeParseClientMessage,
  safeParseServerMessage,
  utf8ByteLength,
} from './parse-messages.js';
export {
  type SchemaFamily,
  schemaFamilyOf,
  V0_9_SCHEMA_FAMILY,
  V1_0_SCHEMA_FAMILY,
} from './schema-family.js';
export {
  A2UI_SCHEMA_BASE_URI,
  CATALOG_ALIAS_SCHEMA_ID,
  CLIENT_CAPABILITIES_SCHEMA_ID,
  CLIENT_DATA_MODEL_SCHEMA_ID,
  CLIENT_TO_SERVER_SCHEMA_ID,
  COMMON_TYPES_SCHEMA_ID,
  SERVER_CAPABILITIES_SCHEMA_ID,
  SERVER_TO_CLIENT_SCHEMA_ID,
  V1_0_AGENT_TO_RENDERER_SCHEMA_ID,
  V1_0_CATALOG_ALIAS_SCHEMA_ID,
  V1_0_COMMON_TYPES_SCHEMA_ID,
  V1_0_SCHEMA_BASE_URI,
} from './schema-ids.js';
export {
  type ValidateOptions,
  type ValidateServerMessageOptions,
  validateClientCapabilities,
  validateClientDataModel,
  validateClientMessage,
  validateServerCapabilities,
  validateServerMessage,
} from './validate-messages.js';
export type { SafeParseResult, ValidationIssue } from './validation-issue.js';
export {
  basicCatalogValidator,
  builtinValidatorsProvided,
  createValidatorRegistry,
  defaultValidatorRegistry,
  getBuiltinCatalogValidator,
  minimalCatalogValidator,
  type ValidatorRegistry,
  type ValidatorRegistryOptions,
  v10BasicCatalogValidator,
} from './validator-registry.js';
