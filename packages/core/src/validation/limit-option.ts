import { A2uiError } from '../errors/a2ui-error.js';
import { describeEchoedValue } from '../errors/describe-echoed-value.js';

/**
 * A size or depth limit given as an option (`maxDepth`, `maxBlockBytes`, …), checked when the
 * object using it is created: a limit of 0, a negative or fractional number, `NaN` or a
 * non-number would otherwise refuse every input later, with a message naming a limit nobody meant.
 *
 * @param owner - What takes the option, named in the message (e.g. `createA2uiStreamParser`).
 * @param option - The option's name.
 * @param value - The value given; `undefined` means the default.
 * @param fallback - The default.
 * @returns `value`, or `fallback` when it is `undefined`.
 * @throws A2uiError `VALIDATION_FAILED` (`data: { reason: 'option', option }`) unless `value` is
 *   a positive integer or `Infinity`.
 */
export function resolveLimitOption(
  owner: string,
  option: string,
  value: unknown,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  if (
    typeof value === 'number' &&
    (value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value >= 1))
  ) {
    return value;
  }
  throw new A2uiError(
    'VALIDATION_FAILED',
    `${owner}: ${option} must be a positive integer or Infinity, got ${describeEchoedValue(value)}.`,
    { data: { reason: 'option', option } },
  );
}
