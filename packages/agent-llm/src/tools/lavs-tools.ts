/**
 * A LAVS service's endpoints as app tools (issue 23, "endpoints become agent tools"): the model
 * discovers the service's queries and mutations from its manifest — each a tool named
 * `lavs_<endpointId>` with the endpoint's description and `schema.input` — and calls them
 * through the service, locally (a runtime) or over HTTP (`lavs/call`, LAVS spec §5.2).
 * Subscriptions are pushes, not calls, and are not offered.
 */
import { A2uiError } from '@a2ui-ts/core';
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

/** Options of {@link createLavsTools}: the service, by `url` or as `service`. */
export interface LavsToolsOptions {
  /** A running service's base URL: `GET {url}/manifest`, `POST {url}/` (`serveLavs` serves both). */
  url?: string;
  /** A service in this process (a `LavsRuntime`). */
  service?: LavsServiceLike;
  /** Prefix of the tool names. @default 'lavs_' */
  prefix?: string;
  /** Extra headers of every HTTP request (authentication). @default {} */
  headers?: Record<string, string>;
}

/** Tool names every provider accepts (OpenAI's rule is the strictest). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * AI SDK tools for the `query` and `mutation` endpoints of a LAVS service, for
 * `createLlmAgent({ tools })`. A call's LAVS error (invalid params, permission denied, …) is the
 * tool's error result, which the model reads and may correct.
 *
 * @param options - `url` or `service`, `prefix`, `headers`
 * @returns one tool per endpoint, named `<prefix><endpointId>`
 * @throws `A2uiError` `NOT_SUPPORTED` when neither `url` nor `service` is given, or an
 *   endpoint's tool name would be refused by providers; `TRANSPORT_ERROR` when the manifest
 *   cannot be fetched
 *
 * @example
 * ```ts
 * const tools = await createLavsTools({ url: 'http://127.0.0.1:5555' });
 * const agent = createLlmAgent({ model, tools });
 * ```
 */
export async function createLavsTools(options: LavsToolsOptions): Promise<ToolSet> {
  const source =
    options.service ??
    (options.url === undefined
      ? undefined
      : await remoteService(options.url, options.headers ?? {}));
  if (source === undefined)
    throw new A2uiError('NOT_SUPPORTED', 'createLavsTools needs a url or a service.');
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
      execute: (input) => source.call(endpoint.id, input),
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

/** A service over HTTP: its manifest fetched once, each call a `lavs/call`. */
async function remoteService(
  url: string,
  headers: Record<string, string>,
): Promise<LavsServiceLike> {
  const base = url.replace(/\/+$/, '');
  let response: Response;
  try {
    response = await fetch(`${base}/manifest`, { headers });
  } catch (error) {
    throw new A2uiError(
      'TRANSPORT_ERROR',
      `The LAVS manifest at ${base}/manifest could not be fetched.`,
      { cause: error },
    );
  }
  if (!response.ok)
    throw new A2uiError(
      'TRANSPORT_ERROR',
      `The LAVS manifest at ${base}/manifest answered HTTP ${response.status}.`,
    );
  const manifest = (await response.json()) as LavsManifestLike;
  let nextId = 0;
  return {
    manifest,
    async call(endpointId, input) {
      const answer = await fetch(`${base}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: ++nextId,
          method: 'lavs/call',
          params: { endpoint: endpointId, input },
        }),
      });
      const body = (await answer.json()) as {
        result?: unknown;
        error?: { code: number; message: string; data?: unknown };
      };
      if (body.error !== undefined)
        throw new Error(
          `LAVS error ${body.error.code}: ${body.error.message}${body.error.data === undefined ? '' : ` ${JSON.stringify(body.error.data)}`}`,
        );
      return body.result;
    },
  };
}
