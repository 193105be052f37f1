/**
 * JSON Pointers (RFC 6901) with the A2UI extensions of digest §7.2: relative paths resolve against
 * a scope, `""`/`"/"` mean the root, trailing and doubled `/` are normalised away.
 *
 * Decision: unlike `@a2ui/web_core`, `~0`/`~1` ARE decoded (RFC 6901), so keys containing `/` or
 * `~` are addressable. A consequence of normalising empty segments is that the empty-string key
 * is not addressable.
 */
import { A2uiError } from '../errors/a2ui-error.js';

/** Segments that could reach `Object.prototype`; any pointer containing one is rejected. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/** True when `segment` is a canonical array index (`0`, `12`; not `01`, `-1`). */
export function isArrayIndex(segment: string): boolean {
  return ARRAY_INDEX.test(segment);
}

function decodeSegment(raw: string, pointer: string): string {
  if (!raw.includes('~')) return raw;
  if (/~(?![01])/.test(raw)) {
    throw new A2uiError(
      'INVALID_PATH',
      `Invalid escape in JSON Pointer "${pointer}": "~" must be followed by 0 or 1.`,
      {
        path: pointer,
      },
    );
  }
  return raw.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Splits an absolute pointer into decoded segments. `""` and `"/"` give `[]`.
 *
 * @throws A2uiError `INVALID_PATH` for a relative pointer, a bad `~` escape or a forbidden segment.
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  if (!pointer.startsWith('/')) {
    throw new A2uiError('INVALID_PATH', `JSON Pointer "${pointer}" must start with "/".`, {
      path: pointer,
    });
  }
  const segments: string[] = [];
  for (const raw of pointer.split('/')) {
    if (raw === '') continue;
    const segment = decodeSegment(raw, pointer);
    if (FORBIDDEN_SEGMENTS.has(segment)) {
      throw new A2uiError(
        'INVALID_PATH',
        `JSON Pointer "${pointer}" uses the forbidden segment "${segment}".`,
        {
          path: pointer,
        },
      );
    }
    segments.push(segment);
  }
  return segments;
}

/** Encodes one segment per RFC 6901 (`~` → `~0`, `/` → `~1`). */
export function encodeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Joins decoded segments into a canonical absolute pointer (`[]` → `"/"`). */
export function formatPointer(segments: readonly string[]): string {
  if (segments.length === 0) return '/';
  let out = '';
  for (const segment of segments) out += `/${encodeSegment(segment)}`;
  return out;
}

/** Canonical form of an absolute pointer: `"/a//b/"` → `"/a/b"`, `""` → `"/"`. */
export function normalizePointer(pointer: string): string {
  return formatPointer(parsePointer(pointer));
}

/**
 * Resolves `path` against `scope` (digest §7.2): absolute paths ignore the scope; `""` and `"."`
 * are the scope itself; `name` in scope `/items/0` is `/items/0/name`. There is no `..`.
 *
 * @param path - absolute (`/a/b`) or relative (`a/b`) pointer
 * @param scope - absolute pointer of the current data scope; `/` at the surface root
 * @returns the canonical absolute pointer
 * @throws A2uiError `INVALID_PATH`
 */
export function resolvePointer(path: string, scope = '/'): string {
  if (path.startsWith('/')) return normalizePointer(path);
  if (path === '' || path === '.') return normalizePointer(scope);
  const relative = path.startsWith('./') ? path.slice(2) : path;
  return normalizePointer(`${scope === '/' ? '' : scope}/${relative}`);
}

/** True when `descendant` equals `ancestor` or lies below it (both canonical). */
export function isPointerWithin(descendant: string, ancestor: string): boolean {
  if (ancestor === '/') return true;
  return descendant === ancestor || descendant.startsWith(`${ancestor}/`);
}
