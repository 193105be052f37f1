/**
 * Checks (digest §8.4): each `condition` is a DynamicBoolean; a falsy one fails with its `message`.
 */
import { isRecord } from '../protocol/guards.js';
import { toBoolean } from './coercion.js';
import type { DataContext, EvaluateOptions } from './data-context.js';

/** Result of {@link evaluateChecks}. */
export interface CheckResult {
  /** True when every check passes (or there are none). */
  readonly isValid: boolean;
  /** Messages of the failing checks, in order; inputs show the first (§8.4). */
  readonly messages: readonly string[];
}

const VALID: CheckResult = Object.freeze({
  isValid: true,
  messages: Object.freeze([]) as readonly string[],
});

/** Message used for the tolerated shorthand form that has no `message` (digest §17 item 1). */
export const DEFAULT_CHECK_MESSAGE = 'Validation failed';

/**
 * Evaluates `checks` in `context`. Accepts the schema form `{condition, message}` and, like the
 * reference renderers, the shorthand `{call, args, message}` (digest §17 item 1).
 */
export function evaluateChecks(
  checks: unknown,
  context: DataContext,
  options: EvaluateOptions = {},
): CheckResult {
  if (!Array.isArray(checks) || checks.length === 0) return VALID;
  const messages: string[] = [];
  for (const rule of checks) {
    if (!isRecord(rule)) continue;
    const condition =
      'condition' in rule
        ? rule.condition
        : 'call' in rule
          ? { call: rule.call, args: rule.args }
          : undefined;
    if (condition === undefined) continue;
    if (!toBoolean(context.evaluate(condition, options))) {
      messages.push(typeof rule.message === 'string' ? rule.message : DEFAULT_CHECK_MESSAGE);
    }
  }
  return messages.length === 0 ? VALID : { isValid: false, messages };
}
