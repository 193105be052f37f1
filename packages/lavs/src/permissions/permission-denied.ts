import { LavsError } from '../errors/lavs-error.js';

/** Which permission of the manifest refused a call (spec §4.6). */
export type PermissionName = 'fileAccess' | 'networkAccess' | 'maxExecutionTime' | 'maxMemory';

/**
 * A refusal by `permission`: -32001 with `data.permission` naming it, plus what was refused
 * (`data.path`, `data.host`).
 */
export function permissionDenied(
  permission: PermissionName,
  message: string,
  data: Record<string, unknown> = {},
): LavsError {
  return new LavsError('PERMISSION_DENIED', message, { data: { permission, ...data } });
}
