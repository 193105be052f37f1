import { appendPointer } from './quote-value.js';
import type { ValidationIssue } from './validation-issue.js';

/** Default nesting limit for messages, in levels of arrays/objects. */
export const DEFAULT_MAX_DEPTH = 64;

/**
 * Finds the first array or object nested deeper than `maxDepth` (the root container is level 1),
 * without recursion, so a 100,000-deep value cannot overflow the stack. Run it before handing a
 * value to Ajv or any recursive walk. A cyclic object graph counts as infinitely deep.
 *
 * @param value - Any value; primitives have depth 0.
 * @param maxDepth - Deepest allowed level of nested arrays/objects.
 * @returns A `maxDepth` issue at the JSON Pointer of the first too-deep container, or `undefined`.
 *
 * @example
 * ```ts
 * findDepthViolation([[[1]]], 2); // { path: '/0/0', keyword: 'maxDepth', message: '…' }
 * ```
 */
export function findDepthViolation(value: unknown, maxDepth: number): ValidationIssue | undefined {
  return walk(value, maxDepth, false);
}

/**
 * {@link findDepthViolation}, and also the first number JSON cannot carry: `Infinity`, `-Infinity`
 * or `NaN`. `JSON.parse` turns a literal beyond double range (`1e999`) into `Infinity`, which
 * `JSON.stringify` would send back as `null`; validators refuse it instead. In-process callers can
 * also hand over values no JSON text holds — a `bigint` (on which `JSON.stringify` throws, so one
 * stored in a data model would break every later snapshot and send), a function or a symbol —
 * and those are refused the same way. One pass, no recursion.
 *
 * @param value - Any value.
 * @param maxDepth - Deepest allowed level of nested arrays/objects.
 * @returns A `maxDepth` issue, a `type` issue at the pointer of the non-finite number, or
 *   `undefined` when the value is fine.
 *
 * @example
 * ```ts
 * findJsonViolation(JSON.parse('{"a":[1e999]}'), 64); // { path: '/a/0', keyword: 'type', … }
 * ```
 */
export function findJsonViolation(value: unknown, maxDepth: number): ValidationIssue | undefined {
  return walk(value, maxDepth, true);
}

/**
 * The walk behind both exports (`json`: also refuse non-finite numbers). It keeps no parent
 * chain: the common case (nothing wrong) only needs values and depths, and the pointer of a
 * violation is recovered by a second walk.
 */
function walk(value: unknown, maxDepth: number, json: boolean): ValidationIssue | undefined {
  if (typeof value !== 'object' || value === null) {
    return json && !isJsonScalar(value) ? notJsonIssue('', value) : undefined;
  }
  if (maxDepth < 1) return depthLimitIssue('', maxDepth);
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop()!;
    const depth = depths.pop()!;
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        if (!admit(current[index], depth, maxDepth, json, values, depths))
          return locate(value, maxDepth, json);
      }
    } else {
      // for…in allocates no key array (twice as fast as Object.keys here); it also visits
      // inherited enumerable properties, which only `locate` (own properties) then confirms.
      for (const key in current) {
        const child = (current as Record<string, unknown>)[key];
        if (!admit(child, depth, maxDepth, json, values, depths)) {
          return locate(value, maxDepth, json);
        }
      }
    }
  }
  return undefined;
}

/**
 * One child of a container at `depth`: false when it breaks a rule (too deep, or a non-finite
 * number when `json`); a container is queued to be walked. A plain function, not a closure, so
 * the walk allocates nothing per call.
 */
function admit(
  child: unknown,
  depth: number,
  maxDepth: number,
  json: boolean,
  values: object[],
  depths: number[],
): boolean {
  if (typeof child === 'object') {
    if (child === null) return true;
    if (depth >= maxDepth) return false;
    values.push(child);
    depths.push(depth + 1);
    return true;
  }
  return !json || isJsonScalar(child);
}

/** Whether a non-object value survives `JSON.stringify` as itself (`undefined` is dropped, as JSON does). */
function isJsonScalar(value: unknown): boolean {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value);
    case 'bigint':
    case 'function':
    case 'symbol':
      return false;
    default:
      return true;
  }
}

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | undefined;
  key: string;
}

function pointerOf(frame: Frame): string {
  const keys: string[] = [];
  for (let current: Frame | undefined = frame; current?.parent; current = current.parent)
    keys.push(current.key);
  return keys.reverse().reduce(appendPointer, '');
}

/**
 * The first violation in document order, with its pointer (the slow path: runs only once the
 * fast walk knows there is one).
 */
function locate(value: object, maxDepth: number, json: boolean): ValidationIssue | undefined {
  const stack: Frame[] = [{ value, depth: 1, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (typeof frame.value !== 'object') return notJsonIssue(pointerOf(frame), frame.value);
    if (frame.depth > maxDepth) return depthLimitIssue(pointerOf(frame), maxDepth);
    const entries: Array<[string, unknown]> = Array.isArray(frame.value)
      ? frame.value.map((child, index) => [String(index), child])
      : Object.entries(frame.value as object);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index]!;
      const bad = json && !isJsonScalar(child);
      if (bad || (typeof child === 'object' && child !== null)) {
        stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
      }
    }
  }
  return undefined;
}

/**
 * The issue that reports a value nested deeper than `maxDepth` (keyword `maxDepth`), for
 * checks that find it without a value to walk (the streaming parser, while the text arrives).
 *
 * @param path - JSON Pointer of the too-deep container (`''` when unknown: the message).
 * @param maxDepth - The limit that was passed.
 */
export function depthLimitIssue(path: string, maxDepth: number): ValidationIssue {
  return {
    path,
    keyword: 'maxDepth',
    message: `Value is nested more than ${maxDepth} levels deep (arrays and objects); flatten it or raise maxDepth.`,
  };
}

function notJsonIssue(path: string, value: unknown): ValidationIssue {
  return {
    path,
    keyword: 'type',
    message:
      typeof value === 'number'
        ? `Expected a finite JSON number, got ${value}: a number literal beyond double range (such as 1e999) cannot be represented.`
        : `Expected a JSON value, got a ${typeof value}: JSON has no ${typeof value} values.`,
  };
}
