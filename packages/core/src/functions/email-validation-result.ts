/**
 * v1.0's `email` (`v1_0/catalogs/basic/catalog.json`: `returnType: "validationResult"`;
 * evolution guide: the validation functions return `ValidationResult` instead of a boolean). A
 * failure names a machine-readable `code` and a helpful `message`; a check's own `message` is the
 * fallback for results without one (`binding/checks.ts`), so this message is what the user sees
 * unless the agent's function says otherwise.
 */
import { isEmailAddress } from './basic-functions.js';
import { textArgument } from './function-arguments.js';
import type { FunctionImplementation } from './function-types.js';

/** `ValidationResult.code` of an invalid e-mail address (conformance `validation_result.yaml`). */
export const INVALID_EMAIL_CODE = 'INVALID_EMAIL';

/** `ValidationResult.message` of an invalid e-mail address, in the suite's wording. */
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address (e.g. user@example.com).';

/**
 * `email` returning a v1.0 `ValidationResult`: `{valid: true}`, or `{valid: false, code:
 * "INVALID_EMAIL", message, severity: "error"}`. Same rule as v0.9's boolean `email`
 * ({@link isEmailAddress}).
 *
 * @throws A2uiError `EXPRESSION_ERROR` when `value` is missing or not text
 */
export const emailValidationResult: FunctionImplementation = {
  name: 'email',
  returnType: 'object',
  execute(args) {
    if (isEmailAddress(textArgument('email', args, 'value'))) return { valid: true };
    return {
      valid: false,
      code: INVALID_EMAIL_CODE,
      message: INVALID_EMAIL_MESSAGE,
      severity: 'error',
    };
  },
};
