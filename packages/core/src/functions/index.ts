/**
 * Catalog functions (digest §8): the function contract, the basic and minimal catalog libraries,
 * the `formatString` language, date formatting, the URL policy, and value coercion (§7.5).
 */

export { toBoolean, toDisplayString, toNumber, toNumberOrNaN } from '../binding/coercion.js';
export {
  BASIC_FUNCTIONS,
  type BasicFunctionsOptions,
  createBasicFunctions,
  DEFAULT_MAX_REGEX_INPUT_LENGTH,
  isEmailAddress,
} from './basic-functions.js';
export {
  emailValidationResult,
  INVALID_EMAIL_CODE,
  INVALID_EMAIL_MESSAGE,
} from './email-validation-result.js';
export { type FormatDateOptions, formatDate } from './format-date.js';
export {
  DEFAULT_FORMAT_STRING_MAX_DEPTH,
  DEFAULT_FORMAT_STRING_MAX_OUTPUT_LENGTH,
  evaluateFormatString,
  evaluateFormatStringExpression,
  type FormatStringArgument,
  type FormatStringCall,
  type FormatStringExpression,
  type FormatStringInterpolation,
  type FormatStringLiteral,
  type FormatStringOptions,
  type FormatStringPath,
  type FormatStringTemplate,
  type FormatStringText,
  formatString,
  parseFormatString,
} from './format-string.js';
export type { FunctionContext, FunctionImplementation } from './function-types.js';
export { MINIMAL_FUNCTIONS } from './minimal-functions.js';
export {
  createRegexFunction,
  DEFAULT_REGEX_LIMITS,
  estimateRegexProgramSize,
  type RegexLimits,
} from './regex-function.js';
export {
  createUrlPolicy,
  DEFAULT_URL_POLICY,
  type UrlPolicy,
  type UrlPolicyOptions,
} from './url-policy.js';
