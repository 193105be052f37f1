/**
 * The URL policy every URL sink goes through (Image, Video, AudioPlayer sources and `openUrl`).
 * URLs arrive from the agent, so they are untrusted: the policy is an allowlist of protocols, and
 * it refuses the spellings browsers would normalise into something else (`java\tscript:`,
 * ` javascript:`, `&#106;avascript:` when it ends up in markup) instead of trying to clean them.
 */
import { A2uiError } from '../errors/a2ui-error.js';

/** Options of {@link createUrlPolicy}. */
export interface UrlPolicyOptions {
  /**
   * Protocols allowed in absolute URLs, with or without the trailing colon, case-insensitive
   * (`'https:'`, `'mailto'`). `javascript:` and `vbscript:` are refused even when listed; list
   * `data:` only if you really mean to render inline data.
   * @default ['http:', 'https:']
   */
  allowedProtocols?: readonly string[];
  /**
   * Allow path-relative URLs (`/help`, `img/a.png`, `?q=1`, `#top`). They resolve against
   * `baseUrl` when given, else against the page that renders them, and may never leave that
   * host.
   * @default false
   */
  allowRelative?: boolean;
  /**
   * Allow protocol-relative URLs (`//cdn.example.com/a.png`, also spelled with backslashes),
   * which point at another host with the page's protocol.
   * @default false
   */
  allowProtocolRelative?: boolean;
  /**
   * Absolute URL that relative URLs resolve against. When set, {@link UrlPolicy.sanitize}
   * returns relative URLs resolved to absolute ones.
   * @default undefined (relative URLs are returned as written)
   */
  baseUrl?: string;
}

/** Decides which URLs may reach a sink. Both methods are total: they never throw. */
export interface UrlPolicy {
  /** True when {@link UrlPolicy.sanitize} would return a URL. */
  allows(url: string): boolean;
  /**
   * The URL to hand to the sink, or `undefined` when the policy refuses it. Absolute URLs come
   * back normalised by the WHATWG URL parser (`HTTPS://A.com` → `https://a.com/`).
   */
  sanitize(url: string): string | undefined;
}

/** Never allowed: they run script in the page's origin. */
const ALWAYS_REFUSED = new Set(['javascript:', 'vbscript:']);

/**
 * True for characters browsers strip or ignore while parsing a URL, or that disguise it: C0
 * controls (tab and newline are deleted anywhere in a URL by the WHATWG parser, so
 * `java\tscript:` is `javascript:`), DEL, C1 controls, zero-width characters, bidirectional
 * marks and overrides, line and paragraph separators, invisible operators, and the byte-order mark.
 */
function isDisguisingCharacter(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x206f) ||
    code === 0xfeff
  );
}

function hasDisguisingCharacter(url: string): boolean {
  for (let index = 0; index < url.length; index++) {
    if (isDisguisingCharacter(url.charCodeAt(index))) return true;
  }
  return false;
}

/**
 * HTML character references (`&#58;`, `&#x3a`, `&colon;`): harmless to the URL parser, but a
 * sink that ever writes the URL into markup would decode them. A query string such as
 * `?a=1&b=2` does not match (a named reference needs its `;`).
 */
const CHARACTER_REFERENCE = /&(?:#[0-9]|#x[0-9a-f]|[a-z][a-z0-9]*;)/i;

/** RFC 3986 scheme followed by `:`. */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Two slashes in any direction: browsers read `\` as `/` in http(s) URLs. */
const PROTOCOL_RELATIVE = /^[\\/]{2}/;

/** Stands in for "the page" when checking relative URLs without a `baseUrl`. */
const PLACEHOLDER_BASE = 'https://relative-url.invalid/';

function normalizeProtocol(protocol: string): string {
  const lower = protocol.trim().toLowerCase();
  return lower.endsWith(':') ? lower : `${lower}:`;
}

function parseUrl(url: string, base?: string): URL | undefined {
  try {
    return new URL(url, base);
  } catch {
    return undefined;
  }
}

/**
 * Creates a URL policy.
 *
 * A URL is refused when it is not a non-empty string; has leading or trailing whitespace;
 * contains a control, zero-width or bidirectional-override character or an HTML character
 * reference; or when, parsed by the WHATWG URL parser, its protocol is not allowed. Relative and
 * protocol-relative URLs are refused unless enabled, and a relative URL must stay on its base's
 * host.
 *
 * @param options - see {@link UrlPolicyOptions}
 * @returns the policy
 * @throws A2uiError `URL_BLOCKED` when `baseUrl` is not an absolute URL with an allowed protocol
 * @example
 * ```ts
 * const policy = createUrlPolicy({ allowedProtocols: ['https:', 'mailto:'] });
 * policy.sanitize('mailto:help@example.com'); // 'mailto:help@example.com'
 * policy.allows('javascript:alert(1)');       // false
 * ```
 */
export function createUrlPolicy(options: UrlPolicyOptions = {}): UrlPolicy {
  const allowedProtocols = new Set(
    (options.allowedProtocols ?? ['http:', 'https:'])
      .map(normalizeProtocol)
      .filter((protocol) => !ALWAYS_REFUSED.has(protocol)),
  );
  const allowRelative = options.allowRelative ?? false;
  const allowProtocolRelative = options.allowProtocolRelative ?? false;
  const baseUrl = options.baseUrl;
  const base = baseUrl === undefined ? undefined : parseUrl(baseUrl);
  if (baseUrl !== undefined && (base === undefined || !allowedProtocols.has(base.protocol))) {
    throw new A2uiError(
      'URL_BLOCKED',
      `URL policy: baseUrl "${baseUrl}" must be an absolute URL with an allowed protocol.`,
    );
  }
  const resolutionBase = base?.href ?? PLACEHOLDER_BASE;
  const resolutionHost = new URL(resolutionBase).host;

  function sanitize(url: string): string | undefined {
    if (typeof url !== 'string' || url === '' || url !== url.trim()) return undefined;
    if (hasDisguisingCharacter(url) || CHARACTER_REFERENCE.test(url)) return undefined;
    if (SCHEME.test(url)) {
      const parsed = parseUrl(url);
      return parsed !== undefined && allowedProtocols.has(parsed.protocol)
        ? parsed.href
        : undefined;
    }
    const protocolRelative = PROTOCOL_RELATIVE.test(url);
    if (protocolRelative ? !allowProtocolRelative : !allowRelative) return undefined;
    const resolved = parseUrl(url, resolutionBase);
    if (resolved === undefined || !allowedProtocols.has(resolved.protocol)) return undefined;
    // Belt and braces: whatever spelling got past the checks above, a path-relative URL that
    // resolves to another host is not path-relative.
    if (!protocolRelative && resolved.host !== resolutionHost) return undefined;
    return base === undefined ? url : resolved.href;
  }

  return {
    allows: (url) => sanitize(url) !== undefined,
    sanitize,
  };
}

/**
 * The default policy: absolute `http:` and `https:` URLs only (no relative, protocol-relative,
 * `mailto:`, `data:` or `javascript:` URLs).
 */
export const DEFAULT_URL_POLICY: UrlPolicy = createUrlPolicy();
