export type { A2uiErrorCode, A2uiErrorOptions } from './a2ui-error.js';
export { A2uiError, toA2uiError } from './a2ui-error.js';
export { describeError } from './describe-error.js';
