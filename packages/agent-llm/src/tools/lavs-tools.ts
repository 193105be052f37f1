/**
 * A LAVS service's endpoints as app tools (issue 23, "endpoints become agent tools"): the model
 * discovers the service's queries and mutations from its manifest — each a tool named
 * `lavs_<endpointId>` with the endpoint's description and `schema.input` — and calls them
 * through the service, locally (a runtime) or through `@a2ui-ts/lavs`'s client (`lavs/call` over
 * HTTP, LAVS spec §5.2).
 * Subscriptions are pushes, not calls, and are not offered.
 */
import { A2uiError } from '@a2ui-ts/core';
import { createLavsClient, type LavsClient, LavsError } from '@a2ui-ts/lavs/client';
import { dynamicTool, jsonSchema, type ToolSet } from 'ai';

/** What this module reads of a LAVS manifest (`lavs.json`, spec §4). */
export interface LavsManifestLike {
  name: string;
  endpoints: ReadonlyArray<{
    id: string;
    method: string;
    description?: string;
    schema?: { input?: unknown };
  }>;
  types?: Record<string, unknown>;
}

/** A LAVS service in this process: `@a2ui-ts/lavs`'s `LavsRuntime` is one. */
export interface LavsServiceLike {
  readonly manifest: LavsManifestLike;
  call(endpointId: string, input?: unknown): Promise<unknown>;
}

/** Options of {@link createLavsTools}: the service, by `url`, `client` or as `service`. */
export interface LavsToolsOptions {
  /**
   * A running service's base URL (`serveLavs`'s `url`): a LAVS client (`createLavsClient`) is
   * made for it, which reads `GET {url}/manifest` (unless `manifest` is given) and calls
   * `POST {url}/`.
   */
  url?: string;
  /** A LAVS client of a running service, instead of `url`. */
  client?: Pick<LavsClient, 'call' | 'getManifest'>;
  /** A service in this process (a `LavsRuntime`). */
  service?: LavsServiceLike;
  /**
   * The service's manifest, when the caller has it (e.g. read from its `lavs.json`): not
   * fetched from `url` / `client` then. @default the service's (`getManifest()`)
   */
  manifest?: LavsManifestLike;
  /** Prefix of the tool names. @default 'lavs_' */
  prefix?: string;
  /** Extra headers of every HTTP request with `url` (authentication). @default {} */
  headers?: Record<string, string>;
}

/** Tool names every provider accepts (OpenAI's rule is the strictest). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * AI SDK tools for the `query` and `mutation` endpoints of a LAVS service, for
 * `createLlmAgent({ tools })`. A call's LAVS error (invalid params, permission denied, …) is the
 * tool's error result, which the model reads and may correct.
 *
 * @param options - `url`, `client` or `service`; `manifest`, `prefix`, `headers`
 * @returns one tool per endpoint, named `<prefix><endpointId>`
 * @throws `A2uiError` `NOT_SUPPORTED` when none of `url`, `client`, `service` is given, or an
 *   endpoint's tool name would be refused by providers; `TRANSPORT_ERROR` when the manifest
 *   cannot be fetched
 *
 * @example
 * ```ts
 * const tools = await createLavsTools({ url: 'http://127.0.0.1:5555' });
 * // or, with the manifest at hand: createLavsTools({ url, manifest: JSON.parse(await readFile('lavs.json', 'utf8')) })
 * const agent = createLlmAgent({ model, tools });
 * ```
 */
export async function createLavsTools(options: LavsToolsOptions): Promise<ToolSet> {
  return lavsServiceTools(await serviceOf(options), options);
}

/**
 * {@link createLavsTools} for a service whose manifest is at hand (a `LavsRuntime`, or a client
 * with its manifest), without waiting: for code that builds its agent synchronously.
 *
 * @param service - `manifest` and `call` (a `LavsRuntime` is one)
 * @param options - `prefix` (default `'lavs_'`)
 * @throws `A2uiError` `NOT_SUPPORTED` when an endpoint's tool name would be refused by providers
 */
export function lavsServiceTools(
  service: LavsServiceLike,
  options: Pick<LavsToolsOptions, 'prefix'> = {},
): ToolSet {
  const source = service;
  const { manifest } = source;
  const prefix = options.prefix ?? 'lavs_';
  const tools: ToolSet = {};
  for (const endpoint of manifest.endpoints) {
    if (endpoint.method !== 'query' && endpoint.method !== 'mutation') continue;
    const name = `${prefix}${endpoint.id}`;
    if (!TOOL_NAME.test(name))
      throw new A2uiError(
        'NOT_SUPPORTED',
        `The LAVS endpoint ${endpoint.id} makes the tool name ${name}, which providers refuse.`,
      );
    const defined = dynamicTool({
      description:
        endpoint.description ?? `${endpoint.method} ${endpoint.id} of the ${manifest.name} service`,
      inputSchema: jsonSchema(
        toolSchema(endpoint.schema?.input, manifest.types) as Parameters<typeof jsonSchema>[0],
      ),
      execute: async (input) => {
        try {
          return await source.call(endpoint.id, input);
        } catch (error) {
          throw toolError(error);
        }
      },
    });
    // The manifest's JSON Schema is whatever its author wrote; a provider's strict mode may refuse it.
    tools[name] = { ...defined, strict: false };
  }
  return tools;
}

/**
 * The tool's input schema: the endpoint's `schema.input` with its `#/types/X` references moved
 * to `#/$defs/X` and the manifest's `types` beside them, so it stands alone.
 */
function toolSchema(input: unknown, types: Record<string, unknown> = {}): Record<string, unknown> {
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === '$ref' && typeof inner === 'string'
          ? inner.replace(/^#\/types\//, '#/$defs/')
          : rewrite(inner),
      ]),
    );
  };
  const schema =
    typeof input === 'object' && input !== null
      ? (rewrite(input) as Record<string, unknown>)
      : { type: 'object', properties: {} };
  return Object.keys(types).length > 0 ? { ...schema, $defs: rewrite(types) } : schema;
}

/** The service the tools call: `service` as it is, or a LAVS client with its manifest. */
async function serviceOf(options: LavsToolsOptions): Promise<LavsServiceLike> {
  if (options.service !== undefined) return options.service;
  const client =
    options.client ??
    (options.url === undefined
      ? undefined
      : createLavsClient({ url: options.url, headers: options.headers ?? {} }));
  if (client === undefined)
    throw new A2uiError('NOT_SUPPORTED', 'createLavsTools needs a url, a client or a service.');
  let manifest = options.manifest;
  if (manifest === undefined) {
    try {
      manifest = (await client.getManifest()) as LavsManifestLike;
    } catch (error) {
      throw new A2uiError(
        'TRANSPORT_ERROR',
        `The LAVS manifest${options.url === undefined ? '' : ` at ${options.url}`} could not be read.`,
        { cause: error },
      );
    }
  }
  return { manifest, call: (endpointId, input) => client.call(endpointId, input) };
}

/**
 * What the model reads of a refused call: the LAVS code, message and `data` (an invalid input's
 * JSON Pointers), which the AI SDK's error text would otherwise leave out.
 */
function toolError(error: unknown): unknown {
  if (!LavsError.isInstance(error)) return error;
  const data = error.data === undefined ? '' : ` ${JSON.stringify(error.data)}`;
  return new Error(`LAVS ${error.code}: ${error.message}${data}`, { cause: error });
}
