/**
 * Node's permission model for Node script handlers (issue 23): a script whose command is `node`
 * runs under `--permission` (`--experimental-permission` before Node 22.13) with file-system
 * access granted from `permissions.fileAccess` — and nothing else: no child processes, no worker
 * threads, no addons. Node's model has allow lists only, by path or by a directory followed by
 * `*`, so each pattern grants its static prefix: `./data/**\/*.json` grants `data/` whole, a
 * pattern without wildcards grants that one file. Denials (`!…`) cannot be expressed and are
 * enforced for function handlers only (see the README's "Limits of the enforcement").
 */
import { basename, join, resolve } from 'node:path';
import { resolveInside } from '../permissions/inside-directory.js';

/** The flag that turns the model on, in the running Node (the one scripts are run with). */
export function permissionFlag(versions: { node: string } = process.versions): string {
  const [major = 0, minor = 0] = versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13) ? '--permission' : '--experimental-permission';
}

/** True for a command that runs Node: `node`, or a path to it. */
export function isNodeCommand(command: string): boolean {
  return basename(command) === 'node' || command === process.execPath;
}

const WILDCARD = /[*?[\]{}!()+@]/;

/**
 * The flags that confine a Node script: the model on, the entry script readable, and read and
 * write access to what each allowing `fileAccess` pattern reaches (paths outside the service
 * directory are never granted).
 *
 * @param args - the script's arguments, the entry script first (flags before it are kept)
 * @param baseDir - the service directory (absolute)
 * @param cwd - the script's working directory (absolute), which its relative paths resolve from
 * @param fileAccess - the endpoint's patterns, relative to `baseDir`
 */
export function nodePermissionArgs(
  args: readonly string[],
  baseDir: string,
  cwd: string,
  fileAccess: readonly string[] = [],
): string[] {
  const flag = permissionFlag();
  // The experimental flag's warning would land in every call's audit entry as the script's stderr.
  const flags = flag === '--permission' ? [flag] : [flag, '--disable-warning=ExperimentalWarning'];
  const entry = args.find((arg) => !arg.startsWith('-'));
  if (entry !== undefined) flags.push(`--allow-fs-read=${resolve(cwd, entry)}`);
  for (const pattern of fileAccess) {
    if (pattern.startsWith('!')) continue;
    const segments = pattern.replace(/^\.\//, '').split('/');
    const wild = segments.findIndex((segment) => WILDCARD.test(segment));
    const prefix = resolveInside(
      baseDir,
      wild === -1 ? segments.join('/') : segments.slice(0, wild).join('/') || '.',
    );
    if (prefix === undefined) continue;
    // A directory followed by `*` is Node's "everything beneath"; a static pattern is one file.
    const grant = wild === -1 ? prefix : `${join(prefix, '*')}`;
    flags.push(`--allow-fs-read=${grant}`, `--allow-fs-write=${grant}`);
  }
  return flags;
}
