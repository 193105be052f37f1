/**
 * Loading `lavs.json` (spec §4): the manifest schema, then the rules a schema cannot say —
 * unique endpoint ids, endpoint schemas that compile (their `$ref`s into `types` resolve), and
 * paths that stay inside the service directory. Every problem is reported with a JSON Pointer
 * into the manifest; nothing half-loaded is returned.
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { LavsError } from '../errors/lavs-error.js';
import { resolveInside } from '../permissions/inside-directory.js';
import { createEndpointSchemaCompiler, type SchemaCheck } from './endpoint-schemas.js';
import { MANIFEST_SCHEMA } from './manifest-schema.js';
import type { Endpoint, LavsManifest, Permissions } from './manifest-types.js';
import { describeIssues, type SchemaIssue, toSchemaIssues } from './schema-issues.js';

/** An endpoint ready to run: its definition, compiled schemas and effective permissions. */
export interface LoadedEndpoint {
  readonly endpoint: Endpoint;
  /** Issues of an input against `schema.input` (fills its `default`s); none without a schema. */
  readonly checkInput: SchemaCheck;
  /** Issues of a handler's output against `schema.output`; none without a schema. */
  readonly checkOutput: SchemaCheck;
  /** The service's permissions overridden field by field by the endpoint's (spec §4.6). */
  readonly permissions: Permissions;
}

/** A validated manifest and where it lives. */
export interface LoadedManifest {
  readonly manifest: LavsManifest;
  /** Absolute directory relative paths resolve against (the manifest's own). */
  readonly baseDir: string;
  /** Endpoints by `id`. */
  readonly endpoints: ReadonlyMap<string, LoadedEndpoint>;
}

/** Options of {@link parseManifest}. */
export interface ParseManifestOptions {
  /** Directory relative paths resolve against. @default process.cwd() */
  baseDir?: string;
}

/** Outcome of {@link safeParseManifest}. */
export type SafeParseManifestResult =
  | { readonly success: true; readonly value: LoadedManifest }
  | { readonly success: false; readonly errors: SchemaIssue[] };

let validateManifest: ValidateFunction | undefined;

/** The manifest validator, compiled on first use and kept. */
function manifestValidator(): ValidateFunction {
  validateManifest ??= new Ajv({
    allErrors: true,
    discriminator: true,
    strict: true,
    allowUnionTypes: true,
  }).compile(MANIFEST_SCHEMA);
  return validateManifest;
}

/**
 * Validates a parsed manifest without throwing.
 *
 * @param value - the parsed `lavs.json`
 * @param options - `baseDir`
 * @returns the loaded manifest, or every issue with its JSON Pointer
 */
export function safeParseManifest(
  value: unknown,
  options: ParseManifestOptions = {},
): SafeParseManifestResult {
  const validate = manifestValidator();
  if (!validate(value)) return { success: false, errors: toSchemaIssues(validate.errors) };
  const manifest = value as unknown as LavsManifest;
  const baseDir = resolve(options.baseDir ?? process.cwd());
  const errors: SchemaIssue[] = [...checkPaths(manifest, baseDir)];
  const compiler = createEndpointSchemaCompiler(manifest.types);
  const endpoints = new Map<string, LoadedEndpoint>();
  manifest.endpoints.forEach((endpoint, index) => {
    const at = `/endpoints/${index}`;
    if (endpoints.has(endpoint.id)) {
      errors.push({ pointer: `${at}/id`, message: `duplicates endpoint id "${endpoint.id}"` });
      return;
    }
    const compile = (which: 'input' | 'output'): SchemaCheck => {
      const schema = endpoint.schema?.[which];
      if (schema === undefined) return () => [];
      try {
        return compiler.compile(schema);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        errors.push({
          pointer: `${at}/schema/${which}`,
          message: `is not a valid schema: ${reason}`,
        });
        return () => [];
      }
    };
    endpoints.set(endpoint.id, {
      endpoint,
      checkInput: compile('input'),
      checkOutput: compile('output'),
      permissions: { ...manifest.permissions, ...endpoint.permissions },
    });
  });
  if (errors.length > 0) return { success: false, errors };
  return { success: true, value: { manifest, baseDir, endpoints } };
}

/**
 * Validates a parsed manifest.
 *
 * @param value - the parsed `lavs.json`
 * @param options - `baseDir` (default the current directory)
 * @returns the loaded manifest
 * @throws {@link LavsError} `INVALID_MANIFEST` with `data.errors`: `{ pointer, message }[]`
 *
 * @example
 * ```ts
 * const loaded = parseManifest(JSON.parse(text), { baseDir: '/srv/todo' });
 * loaded.endpoints.get('listTodos')?.endpoint.method; // 'query'
 * ```
 */
export function parseManifest(value: unknown, options: ParseManifestOptions = {}): LoadedManifest {
  const result = safeParseManifest(value, options);
  if (result.success) return result.value;
  throw new LavsError('INVALID_MANIFEST', `Invalid lavs.json: ${describeIssues(result.errors)}`, {
    data: { errors: result.errors },
  });
}

/**
 * Reads and validates `lavs.json`; relative paths in it resolve against its directory.
 *
 * @param path - the manifest file
 * @returns the loaded manifest
 * @throws {@link LavsError} `INVALID_MANIFEST` when the file cannot be read, is not JSON or is
 *   not a valid manifest (`data.errors` with JSON Pointers)
 *
 * @example
 * ```ts
 * const loaded = await loadManifest('./todo-manager/lavs.json');
 * ```
 */
export async function loadManifest(path: string): Promise<LoadedManifest> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new LavsError('INVALID_MANIFEST', `Cannot read ${path}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new LavsError('INVALID_MANIFEST', `${path} is not valid JSON: ${reason}`, {
      cause: error,
      data: { errors: [{ pointer: '', message: `is not valid JSON: ${reason}` }] },
    });
  }
  return parseManifest(value, { baseDir: dirname(resolve(path)) });
}

/** Paths a manifest names that would leave the service directory. */
function checkPaths(manifest: LavsManifest, baseDir: string): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const inside = (path: string, pointer: string) => {
    if (resolveInside(baseDir, path) === undefined)
      issues.push({ pointer, message: 'must stay inside the service directory' });
  };
  const patterns = (permissions: Permissions | undefined, pointer: string) => {
    permissions?.fileAccess?.forEach((pattern, index) => {
      inside(pattern.replace(/^!/, ''), `${pointer}/fileAccess/${index}`);
    });
  };
  patterns(manifest.permissions, '/permissions');
  manifest.endpoints.forEach(({ handler, permissions }, index) => {
    const at = `/endpoints/${index}`;
    patterns(permissions, `${at}/permissions`);
    if (handler.type === 'function') inside(handler.module, `${at}/handler/module`);
    // A bare name (`node`) is looked up on PATH and an absolute path names a system program;
    // a relative path must be the service's own.
    const spawned = (command: string, cwd: string | undefined, pointer: string) => {
      if (cwd !== undefined) inside(cwd, `${pointer}/cwd`);
      if (command.includes('/') && !isAbsolute(command)) inside(command, `${pointer}/command`);
    };
    if (handler.type === 'script') spawned(handler.command, handler.cwd, `${at}/handler`);
    if (handler.type === 'mcp' && typeof handler.server === 'object')
      spawned(handler.server.command, handler.server.cwd, `${at}/handler/server`);
  });
  return issues;
}
