/**
 * Path traversal, refused in one place: every path a manifest or a handler names is resolved
 * against the service directory and must stay inside it.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * `path` resolved against `root`, or `undefined` when it leaves `root` (`../x`, an absolute path
 * elsewhere). Symbolic links are the caller's to check on the real path.
 *
 * @param root - an absolute directory
 * @param path - relative to `root`, or absolute
 */
export function resolveInside(root: string, path: string): string | undefined {
  if (path.includes('\0')) return undefined;
  const absolute = resolve(root, path);
  const rest = relative(root, absolute);
  if (rest === '') return absolute;
  if (rest.split(sep)[0] === '..' || isAbsolute(rest)) return undefined;
  return absolute;
}
