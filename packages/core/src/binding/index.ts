export type { CheckResult } from './checks.js';
export { DEFAULT_CHECK_MESSAGE, evaluateChecks } from './checks.js';
export type { ChildReference, ExpandChildListOptions } from './child-list.js';
export { DEFAULT_MAX_TEMPLATE_ITEMS, expandChildList } from './child-list.js';
export type { BindingHost, DynamicWatch, EvaluateOptions } from './data-context.js';
export { DataContext, isDynamic } from './data-context.js';
