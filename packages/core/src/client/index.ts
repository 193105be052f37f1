export type { A2uiClientOptions, ClientEvent, DispatchActionOptions } from './a2ui-client.js';
export { A2uiClient } from './a2ui-client.js';
export type { ErrorReportingOptions } from './error-reporter.js';
export { DEFAULT_ERROR_REPORTING, ErrorReporter } from './error-reporter.js';
