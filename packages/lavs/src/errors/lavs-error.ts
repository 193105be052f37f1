/**
 * The error class of `@a2ui-ts/lavs`, shaped like core's `A2uiError` (string `code`, `cause`,
 * `data`, a `Symbol.for` brand). LAVS is a protocol of its own with its own error table (spec
 * §5.3); its codes are kept here rather than in core's union, which names A2UI's errors only.
 */

/** Every error the LAVS runtime raises; {@link LAVS_ERRORS} maps each to its JSON-RPC code. */
export type LavsErrorCode =
  /** The request is not JSON (spec §5.3, -32700). */
  | 'PARSE_ERROR'
  /** Not a JSON-RPC 2.0 request, or too large (spec §5.3, -32600). */
  | 'INVALID_REQUEST'
  /** The method, endpoint or subscription does not exist (spec §5.3, -32601). */
  | 'METHOD_NOT_FOUND'
  /** `params` or the input does not match the endpoint's `schema.input` (spec §5.3, -32602). */
  | 'INVALID_PARAMS'
  /** A runtime failure, or handler output that breaks `schema.output` (spec §5.3, §6.3, -32603). */
  | 'INTERNAL_ERROR'
  /** A permission refused the call; `data.permission` names it (spec §6.2, -32001). */
  | 'PERMISSION_DENIED'
  /** The handler ran past its execution time and was stopped (spec §5.3, -32002). */
  | 'TIMEOUT'
  /** The handler failed: non-zero exit, a thrown error, an HTTP error (spec §5.3, -32003). */
  | 'HANDLER_ERROR'
  /** `lavs.json` is not JSON or breaks the manifest schema; `data.errors` has JSON Pointers. */
  | 'INVALID_MANIFEST';

const BRAND = Symbol.for('@a2ui-ts/lavs/LavsError');

/** Options of {@link LavsError}. */
export interface LavsErrorOptions {
  /** The underlying error (never sent to a client). */
  cause?: unknown;
  /** Machine-readable detail; sent to the client as JSON-RPC `error.data`. */
  data?: Record<string, unknown>;
}

/**
 * The one error class of the LAVS runtime. Match on `code`, never on `message`. Its `message`
 * and `data` are what a client sees; `cause` stays on the server.
 *
 * @example
 * ```ts
 * try { await runtime.call('listTodos'); }
 * catch (error) { if (LavsError.isInstance(error) && error.code === 'TIMEOUT') retryLater(); }
 * ```
 */
export class LavsError extends Error {
  readonly code: LavsErrorCode;
  readonly data: Record<string, unknown> | undefined;
  readonly [BRAND] = true;

  constructor(code: LavsErrorCode, message: string, options: LavsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LavsError';
    this.code = code;
    this.data = options.data;
  }

  /** True for any `LavsError`, also one thrown by another copy of this package. */
  static isInstance(value: unknown): value is LavsError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[BRAND] === true
    );
  }
}

/** One row of {@link LAVS_ERRORS}. */
export interface LavsErrorRow {
  /** JSON-RPC `error.code` (spec §5.3). */
  readonly code: number;
  /** The spec's message for the code; a detail may follow after `": "`. */
  readonly message: string;
}

/**
 * The spec's error table (§5.3), keyed by {@link LavsErrorCode}. `INVALID_MANIFEST` is raised
 * when a manifest is loaded, never on the wire; it maps to -32603 should it reach a client.
 */
export const LAVS_ERRORS: Readonly<Record<LavsErrorCode, LavsErrorRow>> = {
  PARSE_ERROR: { code: -32700, message: 'Parse error' },
  INVALID_REQUEST: { code: -32600, message: 'Invalid request' },
  METHOD_NOT_FOUND: { code: -32601, message: 'Method not found' },
  INVALID_PARAMS: { code: -32602, message: 'Invalid params' },
  INTERNAL_ERROR: { code: -32603, message: 'Internal error' },
  PERMISSION_DENIED: { code: -32001, message: 'Permission denied' },
  TIMEOUT: { code: -32002, message: 'Timeout' },
  HANDLER_ERROR: { code: -32003, message: 'Handler error' },
  INVALID_MANIFEST: { code: -32603, message: 'Internal error' },
};

/** A JSON-RPC 2.0 error object (spec §5.2.2 `LAVSError`). */
export interface LavsErrorObject {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

/**
 * The wire form of anything thrown while serving a request: a {@link LavsError} as its row and
 * its own message and data; anything else as a bare -32603 (no internal text reaches a client).
 *
 * @param error - what was thrown
 * @returns the JSON-RPC error object
 */
export function toLavsErrorObject(error: unknown): LavsErrorObject {
  if (!LavsError.isInstance(error) || error.code === 'INVALID_MANIFEST')
    return { code: LAVS_ERRORS.INTERNAL_ERROR.code, message: LAVS_ERRORS.INTERNAL_ERROR.message };
  const row = LAVS_ERRORS[error.code];
  const message = error.message === row.message ? row.message : `${row.message}: ${error.message}`;
  return error.data === undefined
    ? { code: row.code, message }
    : { code: row.code, message, data: error.data };
}
