import { appendPointer } from './diagnose-schema.js';
import type { ValidationIssue } from './validation-issue.js';

/** Default nesting limit for messages, in levels of arrays/objects. */
export const DEFAULT_MAX_DEPTH = 64;

interface Frame {
  value: object;
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
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: Frame[] = [{ value, depth: 1, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > maxDepth) {
      return {
        path: pointerOf(frame),
        keyword: 'maxDepth',
        message: `Value is nested more than ${maxDepth} levels deep (arrays and objects); flatten it or raise maxDepth.`,
      };
    }
    const entries: Array<[string, unknown]> = Array.isArray(frame.value)
      ? frame.value.map((child, index) => [String(index), child])
      : Object.entries(frame.value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index]!;
      if (typeof child === 'object' && child !== null) {
        stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
      }
    }
  }
  return undefined;
}
