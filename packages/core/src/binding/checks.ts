/**
 * Checks (digest §8.4; v1.0 "Component Validation & Check Rules"): each `condition` is a
 * DynamicBoolean (v0.9) or yields a v1.0 `ValidationResult` object; a falsy boolean or a result
 * with `valid: false` fails.
 */
import { isRecord } from '../protocol/guards.js';
import { toBoolean } from './coercion.js';
import type { DataContext, EvaluateOptions } from './data-context.js';

/** `ValidationResult.severity` (v1.0 `catalog_definition.json#/$defs/ValidationResult`). */
export type CheckSeverity = 'error' | 'warning' | 'info';

/** One failing check: its message, and what a v1.0 `ValidationResult` said about it. */
export interface CheckFailure {
  /** The result's `message`, else the rule's `message`, else {@link DEFAULT_CHECK_MESSAGE}. */
  readonly message: string;
  /** The result's machine-readable `code` (e.g. `EXPIRED_CARD`), when it gave one. */
  readonly code?: string;
  /** `error` for a boolean condition and when the result names none (the spec default). */
  readonly severity: CheckSeverity;
}

/** Result of {@link evaluateChecks}. */
export interface CheckResult {
  /**
   * True when no check fails with severity `error` (or there are none). A `warning` or `info`
   * result is shown but does not block: it makes no Button inert and no action refused.
   */
  readonly isValid: boolean;
  /** Messages of the checks failing with severity `error`, in order; inputs show the first (§8.4). */
  readonly messages: readonly string[];
  /** Every failing check in order, whatever its severity. */
  readonly failures: readonly CheckFailure[];
}

const NONE = Object.freeze([]) as readonly never[];

const VALID: CheckResult = Object.freeze({ isValid: true, messages: NONE, failures: NONE });

/** Message used for the tolerated shorthand form that has no `message` (digest §17 item 1). */
export const DEFAULT_CHECK_MESSAGE = 'Validation failed';

const SEVERITIES: ReadonlySet<string> = new Set(['error', 'warning', 'info']);

/** True for a v1.0 `ValidationResult`: an object whose `valid` is a boolean. */
function isValidationResult(value: unknown): value is Record<string, unknown> & { valid: boolean } {
  return isRecord(value) && typeof value.valid === 'boolean';
}

/** The failure `value` (a condition's result) stands for, or `undefined` when it passes. */
function failureOf(value: unknown, ruleMessage: unknown): CheckFailure | undefined {
  const fallback = typeof ruleMessage === 'string' ? ruleMessage : DEFAULT_CHECK_MESSAGE;
  if (!isValidationResult(value)) {
    return toBoolean(value) ? undefined : { message: fallback, severity: 'error' };
  }
  if (value.valid) return undefined;
  const severity =
    typeof value.severity === 'string' && SEVERITIES.has(value.severity)
      ? (value.severity as CheckSeverity)
      : 'error';
  const message =
    typeof value.message === 'string' && value.message !== '' ? value.message : fallback;
  return typeof value.code === 'string'
    ? { message, code: value.code, severity }
    : { message, severity };
}

/** A result holding `failures` (in order); {@link isValid} unless one is an error. */
export function checkResultOf(failures: readonly CheckFailure[]): CheckResult {
  if (failures.length === 0) return VALID;
  const messages = failures
    .filter((failure) => failure.severity === 'error')
    .map((failure) => failure.message);
  return { isValid: messages.length === 0, messages, failures };
}

/**
 * Evaluates `checks` in `context`. Accepts the schema form `{condition, message}` and, like the
 * reference renderers, the shorthand `{call, args, message}` (digest §17 item 1). A condition
 * may yield a boolean (v0.9) or a `ValidationResult` (v1.0), whatever the surface's version:
 * reading the richer form costs nothing and a v0.9 agent never sends it.
 */
export function evaluateChecks(
  checks: unknown,
  context: DataContext,
  options: EvaluateOptions = {},
): CheckResult {
  if (!Array.isArray(checks) || checks.length === 0) return VALID;
  const failures: CheckFailure[] = [];
  for (const rule of checks) {
    if (!isRecord(rule)) continue;
    const condition =
      'condition' in rule
        ? rule.condition
        : 'call' in rule
          ? { call: rule.call, args: rule.args }
          : undefined;
    if (condition === undefined) continue;
    const failure = failureOf(context.evaluate(condition, options), rule.message);
    if (failure) failures.push(failure);
  }
  return checkResultOf(failures);
}
