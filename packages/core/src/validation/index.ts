/**
 * Schema validation of A2UI v0.9 messages and metadata (digest §1–§6, §10).
 *
 * Browser-safe: the basic, minimal and catalog-independent validators are precompiled (Ajv
 * standalone) and need no `eval`. Only `compileCatalogValidator` compiles at run time. The
 * ahead-of-time generator for custom catalogs lives in `./generate-catalog-module.ts` and is
 * deliberately NOT exported here (it imports the Ajv compiler for Node use).
 */
export type { ValidationIssue, SafeParseResult } from './validation-issue.js';
export type {
  CatalogValidator,
  CatalogValidateOptions,
  ComponentCheck,
  PrecompiledCatalogModule,
  StandaloneValidateFunction,
} from './catalog-validator.js';
export { createPrecompiledCatalogValidator } from './catalog-validator.js';
export type { SchemaErrorObject } from './ajv-errors-to-issues.js';
export { ajvErrorsToIssues } from './ajv-errors-to-issues.js';
export { type CompileCatalogValidatorOptions, compileCatalogValidator } from './compile-catalog-validator.js';
export {
  type ValidatorRegistry,
  type ValidatorRegistryOptions,
  basicCatalogValidator,
  createValidatorRegistry,
  defaultValidatorRegistry,
  getBuiltinCatalogValidator,
  minimalCatalogValidator,
} from './validator-registry.js';
export {
  type ValidateOptions,
  type ValidateServerMessageOptions,
  validateClientCapabilities,
  validateClientDataModel,
  validateClientMessage,
  validateServerCapabilities,
  validateServerMessage,
} from './validate-messages.js';
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  type ParseClientMessageOptions,
  type ParseLimits,
  type ParseServerMessageOptions,
  parseClientMessage,
  parseServerMessage,
  safeParseClientMessage,
  safeParseServerMessage,
} from './parse-messages.js';
export { type JsonLine, type ParseJsonLinesOptions, parseJsonLines, toMessageList } from './message-list.js';
export { DEFAULT_MAX_DEPTH, findDepthViolation } from './find-depth-violation.js';
export {
  A2UI_SCHEMA_BASE_URI,
  CATALOG_ALIAS_SCHEMA_ID,
  CLIENT_CAPABILITIES_SCHEMA_ID,
  CLIENT_DATA_MODEL_SCHEMA_ID,
  CLIENT_TO_SERVER_SCHEMA_ID,
  COMMON_TYPES_SCHEMA_ID,
  SERVER_CAPABILITIES_SCHEMA_ID,
  SERVER_TO_CLIENT_SCHEMA_ID,
} from './schema-ids.js';
/** Run-time helpers that precompiled validator modules import (`generateCatalogValidatorModule`). */
export { validatorRuntime } from './generated/runtime.js';
