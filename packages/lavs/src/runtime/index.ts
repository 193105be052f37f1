export type { LavsAuditEntry, LavsAuditLogger } from './audit-entry.js';
export { stderrAuditLogger } from './audit-entry.js';
export type { CallOptions, LavsRuntime, LavsRuntimeOptions } from './lavs-runtime.js';
export { createLavsRuntime, LAVS_RUNTIME_DEFAULTS } from './lavs-runtime.js';
