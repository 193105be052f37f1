import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { createUrlPolicy, DEFAULT_URL_POLICY } from './url-policy.js';

describe('DEFAULT_URL_POLICY', () => {
  it('allows absolute http and https URLs, normalised', () => {
    expect(DEFAULT_URL_POLICY.sanitize('https://a2ui.org/help')).toBe('https://a2ui.org/help');
    expect(DEFAULT_URL_POLICY.sanitize('http://example.com')).toBe('http://example.com/');
    expect(DEFAULT_URL_POLICY.sanitize('HTTPS://EXAMPLE.com/a b?q=1&r=2#x')).toBe(
      'https://example.com/a%20b?q=1&r=2#x',
    );
    expect(DEFAULT_URL_POLICY.allows('https://example.com/img.png')).toBe(true);
  });

  const refused: [string, string][] = [
    ['javascript:', 'javascript:alert(1)'],
    ['mixed-case javascript:', 'JaVaScRiPt:alert(1)'],
    ['leading space', ' javascript:alert(1)'],
    ['leading space before https', ' https://example.com'],
    ['trailing newline', 'https://example.com\n'],
    ['leading NBSP', '\u00a0javascript:alert(1)'],
    ['newline inside the scheme', 'java\nscript:alert(1)'],
    ['tab inside the scheme', 'java\tscript:alert(1)'],
    ['carriage return', 'java\rscript:alert(1)'],
    ['NUL', 'javascript\u0000:alert(1)'],
    ['C1 control', 'https://exa\u0085mple.com'],
    ['zero-width space', 'java\u200bscript:alert(1)'],
    ['bidi override', 'https://example.com/\u202egnp.exe'],
    ['BOM', '\ufeffjavascript:alert(1)'],
    ['numeric entity', 'javascript&#58;alert(1)'],
    ['numeric entity in the scheme', '&#106;avascript:alert(1)'],
    ['hex entity', 'javascript&#x3a;alert(1)'],
    ['named entity', 'javascript&colon;alert(1)'],
    ['entity inside https', 'https://example.com/&#x2f;x'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['data:text/html', 'data:text/html,<script>alert(1)</script>'],
    ['data:image', 'data:image/png;base64,AAAA'],
    ['file:', 'file:///etc/passwd'],
    ['blob:', 'blob:https://example.com/uuid'],
    ['mailto: (not allowed by default)', 'mailto:help@example.com'],
    ['tel:', 'tel:+15550100'],
    ['protocol-relative', '//evil.com'],
    ['protocol-relative with backslashes', '\\\\evil.com'],
    ['protocol-relative mixed slashes', '/\\evil.com'],
    ['relative path', '/help'],
    ['relative file', 'img/a.png'],
    ['query only', '?q=1'],
    ['fragment only', '#top'],
    ['empty', ''],
    ['malformed https', 'https://'],
    ['percent-encoded scheme', 'javascript%3Aalert(1)'],
  ];
  for (const [name, url] of refused) {
    it(`refuses ${name}`, () => {
      expect(DEFAULT_URL_POLICY.allows(url)).toBe(false);
      expect(DEFAULT_URL_POLICY.sanitize(url)).toBeUndefined();
    });
  }

  it('never throws, even on non-strings', () => {
    for (const value of [undefined, null, 42, {}, []]) {
      expect(DEFAULT_URL_POLICY.sanitize(value as unknown as string)).toBeUndefined();
    }
  });
});

describe('createUrlPolicy', () => {
  it('allows listed protocols, with or without the colon, case-insensitively', () => {
    const policy = createUrlPolicy({ allowedProtocols: ['https:', 'MAILTO', 'tel:'] });
    expect(policy.sanitize('mailto:help@example.com')).toBe('mailto:help@example.com');
    expect(policy.allows('tel:+15550100')).toBe(true);
    expect(policy.allows('http://example.com')).toBe(false);
  });

  it('never allows javascript: or vbscript:, even when listed', () => {
    const policy = createUrlPolicy({ allowedProtocols: ['javascript:', 'vbscript', 'https:'] });
    expect(policy.allows('javascript:alert(1)')).toBe(false);
    expect(policy.allows('vbscript:x')).toBe(false);
  });

  it('allows data: only when listed', () => {
    expect(
      createUrlPolicy({ allowedProtocols: ['data:'] }).allows('data:image/png;base64,AAAA'),
    ).toBe(true);
  });

  it('allows relative URLs when enabled, keeping them on the same host', () => {
    const policy = createUrlPolicy({ allowRelative: true });
    expect(policy.sanitize('/help')).toBe('/help');
    expect(policy.sanitize('img/a.png')).toBe('img/a.png');
    expect(policy.sanitize('?q=1')).toBe('?q=1');
    expect(policy.sanitize('#top')).toBe('#top');
    expect(policy.sanitize('./javascript:alert(1)')).toBe('./javascript:alert(1)');
    expect(policy.allows('//evil.com')).toBe(false);
    expect(policy.allows('/\\evil.com')).toBe(false);
    expect(policy.allows('javascript:alert(1)')).toBe(false);
  });

  it('resolves relative URLs against baseUrl', () => {
    const policy = createUrlPolicy({ allowRelative: true, baseUrl: 'https://app.example/shop/' });
    expect(policy.sanitize('cart?id=1')).toBe('https://app.example/shop/cart?id=1');
    expect(policy.sanitize('/help')).toBe('https://app.example/help');
    expect(policy.sanitize('https://other.example/')).toBe('https://other.example/');
  });

  it('allows protocol-relative URLs only when enabled', () => {
    const policy = createUrlPolicy({ allowProtocolRelative: true });
    expect(policy.sanitize('//cdn.example.com/a.png')).toBe('//cdn.example.com/a.png');
    expect(policy.allows('/help')).toBe(false);
    const withBase = createUrlPolicy({
      allowProtocolRelative: true,
      baseUrl: 'https://app.example/',
    });
    expect(withBase.sanitize('//cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
  });

  it('rejects a baseUrl that is not absolute or not allowed', () => {
    for (const baseUrl of ['/relative', 'ftp://example.com/', 'not a url']) {
      let thrown: unknown;
      try {
        createUrlPolicy({ baseUrl });
      } catch (error) {
        thrown = error;
      }
      expect(A2uiError.isInstance(thrown) && thrown.code).toBe('URL_BLOCKED');
    }
  });
});
