/**
 * `fileAccess` (spec §6.2) as the runtime enforces it on the file API it hands to function
 * handlers: a path must stay inside the service directory, also once symbolic links are
 * followed, and match an allowing glob and no `!` denial. No patterns: no file access at all.
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { resolveInside } from './inside-directory.js';
import { permissionDenied } from './permission-denied.js';

/** Checks paths against one endpoint's `fileAccess`. */
export interface FileAccessPolicy {
  /**
   * The absolute path a handler may use for `path`.
   *
   * @param path - relative to the service directory (or absolute inside it)
   * @throws `LavsError` `PERMISSION_DENIED` with `data.permission: 'fileAccess'`
   */
  resolve(path: string): Promise<string>;
}

/** `./data/*.json` and `data/*.json` name the same files. */
function normalize(pattern: string): string {
  return pattern.replace(/^(\.\/)+/, '');
}

/**
 * The policy of `patterns` over `baseDir`.
 *
 * @param baseDir - the service directory (absolute)
 * @param patterns - `fileAccess`: globs (picomatch syntax), `!` for denials; denials win
 */
export function createFileAccessPolicy(
  baseDir: string,
  patterns: readonly string[] = [],
): FileAccessPolicy {
  const allows = patterns.filter((p) => !p.startsWith('!')).map(normalize);
  const denies = patterns.filter((p) => p.startsWith('!')).map((p) => normalize(p.slice(1)));
  const allowed = allows.length > 0 ? picomatch(allows) : () => false;
  const denied = denies.length > 0 ? picomatch(denies) : () => false;
  const refuse = (path: string, reason: string) =>
    permissionDenied('fileAccess', `fileAccess does not allow ${JSON.stringify(path)}: ${reason}`, {
      path,
    });
  return {
    async resolve(path) {
      if (typeof path !== 'string' || path === '') throw refuse(String(path), 'not a path');
      const absolute = resolveInside(baseDir, path);
      if (absolute === undefined) throw refuse(path, 'outside the service directory');
      const name = relative(baseDir, absolute).split(sep).join('/');
      if (denied(name)) throw refuse(path, 'denied by a "!" pattern');
      if (!allowed(name)) throw refuse(path, 'matches no pattern');
      // A symbolic link inside the directory may point out of it: check where it really goes
      // (the file's, or for a file about to be created its directory's).
      const real = await realPathOf(absolute);
      const realBase = await realpath(baseDir).catch(() => baseDir);
      const inside = resolveInside(realBase, real);
      if (inside === undefined) throw refuse(path, 'a link leads outside the service directory');
      const realName = relative(realBase, inside).split(sep).join('/');
      if (denied(realName) || !allowed(realName))
        throw refuse(path, 'a link leads to a file not allowed');
      return absolute;
    },
  };
}

/** Where `absolute` really is: the file's real path, or its directory's for a new file. */
async function realPathOf(absolute: string): Promise<string> {
  try {
    return await realpath(absolute);
  } catch {
    try {
      return join(await realpath(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}
