export type { A2uiErrorCode, A2uiErrorOptions } from './a2ui-error.js';
export { A2uiError, toA2uiError } from './a2ui-error.js';
export type { DescribeEchoedValueOptions } from './describe-echoed-value.js';
export {
  boundedPrefix,
  describeEchoedValue,
  MAX_ECHOED_LENGTH,
} from './describe-echoed-value.js';
export { describeError } from './describe-error.js';
