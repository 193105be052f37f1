export type { EndpointSchemaCompiler, SchemaCheck } from './endpoint-schemas.js';
export { createEndpointSchemaCompiler } from './endpoint-schemas.js';
export { MANIFEST_SCHEMA } from './manifest-schema.js';
export type {
  ComponentSource,
  Endpoint,
  FunctionHandler,
  Handler,
  HttpHandler,
  JsonSchema,
  LavsManifest,
  McpHandler,
  Permissions,
  ScriptHandler,
  ViewConfig,
} from './manifest-types.js';
export type {
  LoadedEndpoint,
  LoadedManifest,
  ParseManifestOptions,
  SafeParseManifestResult,
} from './parse-manifest.js';
export { loadManifest, parseManifest, safeParseManifest } from './parse-manifest.js';
export type { SchemaIssue } from './schema-issues.js';
