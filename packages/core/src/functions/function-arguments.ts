/**
 * Argument checks shared by the catalog functions (internal): the `EXPRESSION_ERROR`s that name
 * the function and the argument.
 */
import { toDisplayString } from '../binding/coercion.js';
import { A2uiError } from '../errors/a2ui-error.js';

/** Resolved arguments of one call. */
export type Args = Record<string, unknown>;

/**
 * An `EXPRESSION_ERROR` about one argument of one function; `extra` adds fields to its `data`
 * (beside `function` and `argument`) and its `cause`.
 * @internal
 */
export function argumentError(
  functionName: string,
  argument: string,
  message: string,
  extra: { readonly data?: Record<string, unknown>; readonly cause?: unknown } = {},
): A2uiError {
  return new A2uiError('EXPRESSION_ERROR', `${functionName}: argument '${argument}' ${message}.`, {
    cause: extra.cause,
    data: { function: functionName, argument, ...extra.data },
  });
}

/** The JSON type of `value`, for messages. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/** A configuration argument that must be present (not `undefined` or `null`). */
export function requiredArgument(functionName: string, args: Args, argument: string): unknown {
  const value = args[argument];
  if (value === undefined || value === null)
    throw argumentError(functionName, argument, 'is required');
  return value;
}

/** A configuration argument that must be a string. */
export function requiredString(functionName: string, args: Args, argument: string): string {
  const value = requiredArgument(functionName, args, argument);
  if (typeof value !== 'string') {
    throw argumentError(functionName, argument, `must be a string, got ${typeName(value)}`);
  }
  return value;
}

/**
 * A data argument used as text: strings as they are, `null`/`undefined` as `""`, numbers and
 * booleans in their display form. Objects and arrays are refused: their JSON is never the text a
 * check or formatter means to look at.
 * @internal
 */
export function textArgument(functionName: string, args: Args, argument: string): string {
  const value = args[argument];
  if (typeof value === 'object' && value !== null) {
    throw argumentError(functionName, argument, `must be a string, got ${typeName(value)}`);
  }
  return toDisplayString(value);
}
