/**
 * The one function of the v0.9 minimal catalog (digest §10.4, `catalogs/minimal/catalog.json`).
 */
import { createIntl } from './basic-functions.js';
import { textArgument } from './function-arguments.js';
import type { FunctionImplementation } from './function-types.js';

/**
 * `capitalize(value)`: the text with its first character (Unicode code point) upper-cased by the
 * rules of the context's locale (Turkish `i` → `İ`); the rest is unchanged. `null`/`undefined` → `""`.
 */
const capitalize: FunctionImplementation = {
  name: 'capitalize',
  returnType: 'string',
  execute(args, context) {
    const text = textArgument('capitalize', args, 'value');
    const first = text.codePointAt(0);
    if (first === undefined) return '';
    const head = String.fromCodePoint(first);
    return (
      createIntl('capitalize', () => head.toLocaleUpperCase(context.locale)) +
      text.slice(head.length)
    );
  },
};

/**
 * The minimal-catalog functions: `capitalize` (digest §10.4).
 *
 * @throws A2uiError `EXPRESSION_ERROR` from `execute` when `value` is an object or array, or the
 *   context's locale is malformed
 * @example
 * ```ts
 * MINIMAL_FUNCTIONS[0]!.execute({ value: 'hello' }, context); // 'Hello'
 * ```
 */
export const MINIMAL_FUNCTIONS: readonly FunctionImplementation[] = Object.freeze([capitalize]);
