/**
 * The `lavs.json` manifest as LAVS v1.0 defines it (spec §4). Field names are the spec's own.
 */

/** A JSON Schema (draft-07 as ajv reads it); `$ref: "#/types/Name"` points into `types`. */
export type JsonSchema = Record<string, unknown> | boolean;

/** Security constraints (spec §4.6, §6.2); an endpoint's own override the service's, field by field. */
export interface Permissions {
  /**
   * Glob patterns of the files a handler may touch, relative to the service directory; a pattern
   * that starts with `!` denies (denials win). Absent: no file access.
   */
  fileAccess?: string[];
  /** `false` (the default): none; `true`: any host; a list: those hostnames (`*.` for subdomains). */
  networkAccess?: boolean | string[];
  /** Longest a handler may run, in milliseconds. */
  maxExecutionTime?: number;
  /** Most memory a function handler's heap may use, in bytes. */
  maxMemory?: number;
}

/** Runs a command without a shell (spec §4.3). */
export interface ScriptHandler {
  type: 'script';
  /** A command on `PATH` (`node`), or a path relative to the service directory (`./bin/x`). */
  command: string;
  /** Static arguments; with `input: 'args'`, `{{path.to.value}}` is replaced from the input. */
  args?: string[];
  /** How the input reaches the script. @default 'stdin' when the endpoint has `schema.input`, else none */
  input?: 'args' | 'stdin' | 'env';
  /** Working directory, relative to the service directory. @default the service directory */
  cwd?: string;
  /** Longest run, in milliseconds (capped by `permissions.maxExecutionTime`). */
  timeout?: number;
  /** Extra environment variables. */
  env?: Record<string, string>;
}

/** Calls an export of an ES module (spec §4.3). */
export interface FunctionHandler {
  type: 'function';
  /** Path of the module, relative to the service directory. */
  module: string;
  /** Name of the export to call as `(input, context)`. */
  function: string;
}

/** Forwards the input to an HTTP endpoint (spec §4.3). */
export interface HttpHandler {
  type: 'http';
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
}

/**
 * An MCP server started as a local process and spoken to over its stdin and stdout (MCP's stdio
 * transport). The spec names servers without saying how they are reached; this is the form MCP
 * clients use for local servers (`command` + `args`).
 */
export interface McpStdioServer {
  /** A command on `PATH` (`node`), or a path relative to the service directory (`./bin/x`). */
  command: string;
  /** Its arguments, as they are (no shell, no templates). */
  args?: string[];
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Working directory, relative to the service directory. @default the service directory */
  cwd?: string;
}

/** Calls a tool of an MCP server (spec §4.3). */
export interface McpHandler {
  type: 'mcp';
  /** The server: a Streamable HTTP URL (`http:`/`https:`), or a local process over stdio. */
  server: string | McpStdioServer;
  tool: string;
}

/** How an endpoint runs (spec §4.3). */
export type Handler = ScriptHandler | FunctionHandler | HttpHandler | McpHandler;

/** An operation of the service (spec §4.2). */
export interface Endpoint {
  /** Unique within the manifest. */
  id: string;
  /** `query` reads, `mutation` writes, `subscription` pushes over WebSocket (spec §4.2.1). */
  method: 'query' | 'mutation' | 'subscription';
  description?: string;
  handler: Handler;
  schema?: { input?: JsonSchema; output?: JsonSchema };
  permissions?: Permissions;
}

/** Where a service's own view component comes from (spec §4.5). */
export type ComponentSource =
  | { type: 'cdn'; url: string; exportName?: string }
  | { type: 'npm'; package: string; version?: string }
  | { type: 'local'; path: string }
  | { type: 'inline'; code: string };

/** The service's view (spec §4.5). */
export interface ViewConfig {
  component: ComponentSource;
  fallback?: 'list' | 'table' | 'json';
  icon?: string;
  theme?: Record<string, string>;
}

/** A `lavs.json` manifest (spec §4.1). */
export interface LavsManifest {
  /** Protocol version: `"1.0"`. */
  lavs: '1.0';
  name: string;
  /** Semver. */
  version: string;
  description?: string;
  endpoints: Endpoint[];
  view?: ViewConfig;
  /** Named JSON Schemas, referenced as `#/types/Name`. */
  types?: Record<string, JsonSchema>;
  permissions?: Permissions;
}
