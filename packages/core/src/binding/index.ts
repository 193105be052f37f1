export type { ResolvedAccessibility } from './accessible-label.js';
export {
  inferAccessibleLabel,
  resolveAccessibility,
  VISIBLE_LABEL_PROPERTIES,
} from './accessible-label.js';
export type { CheckFailure, CheckResult, CheckSeverity } from './checks.js';
export { checkResultOf, DEFAULT_CHECK_MESSAGE, evaluateChecks } from './checks.js';
export type { ChildReference, ExpandChildListOptions } from './child-list.js';
export { DEFAULT_MAX_TEMPLATE_ITEMS, expandChildList } from './child-list.js';
export type { BindingSnapshot, ComponentBindingOptions } from './component-binding.js';
export { ComponentBinding } from './component-binding.js';
export type { BindingHost, DynamicWatch, EvaluateOptions } from './data-context.js';
export { DataContext, isDynamic } from './data-context.js';
export type { ObservedComputation } from './data-observer.js';
export { DataObserver } from './data-observer.js';
export {
  evaluateSystemFunction,
  INDEX_FUNCTION,
  INDEX_OUTSIDE_TEMPLATE_MESSAGE,
  isSystemFunction,
} from './system-functions.js';
export { findUnknownFunctions } from './unknown-functions.js';
