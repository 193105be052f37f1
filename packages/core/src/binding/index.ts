export type { CheckResult } from './checks.js';
export { DEFAULT_CHECK_MESSAGE, evaluateChecks } from './checks.js';
export type { ChildReference, ExpandChildListOptions } from './child-list.js';
export { DEFAULT_MAX_TEMPLATE_ITEMS, expandChildList } from './child-list.js';
export type { BindingSnapshot, ComponentBindingOptions } from './component-binding.js';
export {
  ComponentBinding,
  findUnavailableActionFunctions,
  isAction,
} from './component-binding.js';
export type { BindingHost, DynamicWatch, EvaluateOptions } from './data-context.js';
export { DataContext, isDynamic } from './data-context.js';
export type { ObservedComputation } from './data-observer.js';
export { DataObserver } from './data-observer.js';
export { sameValue } from './same-value.js';
export { findUnknownFunctions } from './unknown-functions.js';
