/**
 * `networkAccess` (spec §6.2) for http handlers: `false` or absent allows no host, `true` any,
 * a list those hostnames (`*.example.com` also matches its subdomains, not itself).
 */
import { permissionDenied } from './permission-denied.js';

/**
 * Refuses `url` unless `networkAccess` allows its host.
 *
 * @param networkAccess - the endpoint's effective `networkAccess`
 * @param url - where the handler is about to connect
 * @throws `LavsError` `PERMISSION_DENIED` with `data.permission: 'networkAccess'`, `data.host`
 */
export function checkNetworkAccess(
  networkAccess: boolean | readonly string[] | undefined,
  url: URL,
): void {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (networkAccess === true) return;
  const allowed = (networkAccess || []).some((entry) => {
    const pattern = entry.toLowerCase();
    return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern;
  });
  if (!allowed)
    throw permissionDenied('networkAccess', `networkAccess does not allow host ${host}`, { host });
}
