export type { FileAccessPolicy } from './file-access-policy.js';
export { createFileAccessPolicy } from './file-access-policy.js';
export { checkNetworkAccess } from './network-access-policy.js';
export type { PermissionName } from './permission-denied.js';
