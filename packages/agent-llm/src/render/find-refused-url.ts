/**
 * The URLs a model writes into its messages — an `Image`/`Video`/`AudioPlayer` `url`, an
 * `openUrl` call's `args.url`, a theme's `iconUrl` — checked on the agent side with core's URL
 * policy: a `javascript:` or `data:text/html` URL is refused before it leaves, and the model is
 * told, rather than left for the client's own policy to drop silently.
 */
import { isRecord, type UrlPolicy } from '@a2ui-ts/core';

/** Members whose literal string value is a URL a sink receives. */
const URL_KEYS = new Set(['url', 'iconUrl']);

/** A URL the policy refuses, with its JSON Pointer inside the value that held it. */
export interface RefusedUrl {
  readonly path: string;
  readonly url: string;
}

/**
 * The first literal URL in `value` that `policy` refuses. Walks without recursion (run it after
 * the depth check all the same: it visits every member). Bindings (`{path}`) and function calls
 * are not URLs yet; the client's policy checks what they resolve to.
 *
 * @example
 * ```ts
 * findRefusedUrl({ component: 'Image', url: 'javascript:alert(1)' }, createUrlPolicy());
 * // { path: '/url', url: 'javascript:alert(1)' }
 * ```
 */
export function findRefusedUrl(value: unknown, policy: UrlPolicy): RefusedUrl | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (Array.isArray(current)) {
      current.forEach((item, index) => {
        stack.push({ value: item, path: `${path}/${index}` });
      });
      continue;
    }
    if (!isRecord(current)) continue;
    for (const [key, member] of Object.entries(current)) {
      const at = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (URL_KEYS.has(key) && typeof member === 'string' && !policy.allows(member))
        return { path: at, url: member };
      if (typeof member === 'object' && member !== null) stack.push({ value: member, path: at });
    }
  }
  return undefined;
}
