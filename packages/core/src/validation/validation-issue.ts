/**
 * The result types every validator and parser in this folder returns.
 */

/**
 * One problem found in a validated value, worded so that an LLM agent can fix its output.
 *
 * `path` is an RFC 6901 JSON Pointer into the validated value (`""` is the value itself). For a
 * missing or unknown property it points at that property, e.g. `/updateComponents/components/0/text`,
 * because that is the field the agent has to add or remove. The spec's `VALIDATION_FAILED` error
 * (spec §3.2) carries exactly this pointer.
 *
 * @example
 * ```ts
 * const issue: ValidationIssue = {
 *   path: '/updateComponents/components/0/text',
 *   message: 'Expected a string, a {"path"} binding or a {"call"} function call, got integer.',
 *   keyword: 'type',
 * };
 * ```
 */
export interface ValidationIssue {
  /** JSON Pointer into the validated value, e.g. `/updateComponents/components/0/text`. */
  path: string;
  /** One or two plain sentences: what was expected and what was found. */
  message: string;
  /**
   * The JSON Schema keyword that failed (`type`, `required`, `unevaluatedProperties`, `const`, …),
   * or one of the pseudo-keywords raised before schema validation: `json` (syntax error),
   * `maxMessageBytes`, `maxDepth`, `catalog` (unknown catalog id), `component` (unknown component
   * type), `call` (unknown function), `oneOf` (a value matching no allowed shape).
   */
  keyword?: string;
}

/**
 * Result of a `safeParse*` function: the typed value, or the issues that prevented it.
 *
 * @example
 * ```ts
 * const result: SafeParseResult<number> = { success: false, errors: [{ path: '', message: 'Nope.' }] };
 * if (!result.success) console.log(result.errors[0]?.message);
 * ```
 */
export type SafeParseResult<T> =
  | { success: true; value: T }
  | { success: false; errors: ValidationIssue[] };
