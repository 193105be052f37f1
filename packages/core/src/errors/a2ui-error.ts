/**
 * Every error code this project raises or reports. Wire mappings (spec `error` messages, JSON-RPC
 * numeric codes, HTTP statuses) are derived from these in one table each; `docs/errors.md` lists them.
 */
export type A2uiErrorCode =
  /** A message does not match the v0.9 schema or its catalog (spec §3.2, carries a JSON Pointer). */
  | 'VALIDATION_FAILED'
  /** Input text is not JSON. */
  | 'INVALID_JSON'
  /** `createSurface` for a surface that already exists (spec §2.1). */
  | 'SURFACE_EXISTS'
  /** A message names a surface that does not exist (spec §2.2). */
  | 'SURFACE_NOT_FOUND'
  /** `createSurface` names a catalog this client does not have (spec §2.1). */
  | 'CATALOG_NOT_FOUND'
  /**
   * A catalog definition is malformed or breaks a v1.0 rule (`catalogFromJson`), or names a
   * protocol version that is not one. Conformance category `CatalogError`.
   */
  | 'CATALOG_ERROR'
  /**
   * A v1.0 function call (`callRendererFunction` / `callAgentFunction`) was answered with an
   * error: `data.code` is the peer's code (`INVALID_FUNCTION_CALL`, `UNKNOWN_FUNCTION`,
   * `EXECUTION_ERROR`, …), `data.functionCallId` the call.
   */
  | 'FUNCTION_CALL_FAILED'
  /** A v1.0 catalog of another protocol version was mixed into a surface (`multi_catalog.yaml`). */
  | 'CATALOG_VERSION_MISMATCH'
  /** A v1.0 component sits under a parent its `allowedParents` does not list. */
  | 'UNALLOWED_PARENT'
  /** A v1.0 container holds a child its `allowedChildren` does not list. */
  | 'UNALLOWED_CHILD'
  /** A message, frame or body is larger than the configured maximum. */
  | 'MESSAGE_TOO_LARGE'
  /**
   * Code that loads on first need (a catalog's precompiled validator, a protocol version's
   * schemas) was used before it loaded: `await loadValidators()` first, or let `MessageProcessor`
   * queue the message until it has. Also the code of a load that failed.
   */
  | 'MODULE_NOT_LOADED'
  /** A configured cap (depth, components, template expansion, array index) was hit. */
  | 'LIMIT_EXCEEDED'
  /** A JSON Pointer is malformed or uses a forbidden segment (`__proto__`, `constructor`, `prototype`). */
  | 'INVALID_PATH'
  /** A data-model write cannot be applied (through a primitive, non-numeric segment on an array). */
  | 'DATA_ERROR'
  /** A function call or `formatString` expression failed (unknown function, bad syntax, bad args). */
  | 'EXPRESSION_ERROR'
  /** A URL was refused by the URL policy. */
  | 'URL_BLOCKED'
  /** The transport failed to deliver or receive. */
  | 'TRANSPORT_ERROR'
  /** The connection is closed or unknown. */
  | 'CONNECTION_CLOSED'
  /**
   * A client message went out but its answer never came (the transport closed, or the session
   * was lost, while it was on the wire): it may or may not have been applied. `data.requestId` is
   * its idempotency key; over A2A `data.taskId` is the task to read (`GetTask`) to find out.
   */
  | 'OUTCOME_UNKNOWN'
  /** The peer is not authenticated. */
  | 'UNAUTHORIZED'
  /** An HTTP route was asked with a method it does not serve (HTTP 405, with `Allow`). */
  | 'METHOD_NOT_ALLOWED'
  /** The authenticated principal does not own the connection. */
  | 'FORBIDDEN'
  /** A deadline passed: `A2uiClient.until`'s `timeoutMs`; a renderer's `rootTimeoutMs`. */
  | 'TIMEOUT'
  /** The transport or peer cannot do what was asked (e.g. host tool calls over plain A2UI). */
  | 'NOT_SUPPORTED'
  /** The caller's `AbortSignal` fired. */
  | 'ABORTED'
  /** A bug or an unexpected state: please report it. */
  | 'INTERNAL_ERROR';

const BRAND = Symbol.for('@a2ui-ts/core/A2uiError');

/** Options of {@link A2uiError}. */
export interface A2uiErrorOptions {
  /** The underlying error. */
  cause?: unknown;
  /** JSON Pointer into the offending message or data model, when there is one. */
  path?: string;
  /** The surface concerned, when there is one. */
  surfaceId?: string;
  /** Extra machine-readable detail. */
  data?: Record<string, unknown>;
}

/**
 * The one error class of a2ui-ts. Match on `code`, never on `message`.
 *
 * @example
 * ```ts
 * try { parseServerMessage(input); }
 * catch (error) { if (A2uiError.isInstance(error) && error.code === 'VALIDATION_FAILED') console.log(error.path); }
 * ```
 */
export class A2uiError extends Error {
  readonly code: A2uiErrorCode;
  readonly path: string | undefined;
  readonly surfaceId: string | undefined;
  readonly data: Record<string, unknown> | undefined;
  readonly [BRAND] = true;

  constructor(code: A2uiErrorCode, message: string, options: A2uiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'A2uiError';
    this.code = code;
    this.path = options.path;
    this.surfaceId = options.surfaceId;
    this.data = options.data;
  }

  /** True for any `A2uiError`, also one thrown by another copy of this package. */
  static isInstance(value: unknown): value is A2uiError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[BRAND] === true
    );
  }
}

/** Wraps anything thrown into an {@link A2uiError}, keeping an existing one as is. */
export function toA2uiError(error: unknown, fallback: A2uiErrorCode = 'INTERNAL_ERROR'): A2uiError {
  if (A2uiError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new A2uiError(fallback, message, { cause: error });
}
