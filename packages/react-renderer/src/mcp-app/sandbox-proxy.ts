/**
 * The sandbox proxy page of the double-iframe isolation (A2UI guide `mcp-apps-in-a2ui.md`,
 * "Double-Iframe Isolation Pattern"; MCP Apps `ui/notifications/sandbox-*`). The host serves it
 * from its own origin; `McpApp` loads it in an unsandboxed outer frame. The proxy creates the
 * inner frame — where the untrusted app runs, with an opaque origin — and relays JSON-RPC between
 * the two, dropping every message whose source and origin are not the expected ones.
 *
 * The script is a string on purpose: it runs in another document, so bundler transforms of a
 * function body (helpers, renamed identifiers) must not reach it.
 */

/**
 * `sandbox` of the inner frame: the guide's exact set. Never `allow-same-origin` (which would give
 * the app the host's origin, storage and DOM), never `allow-top-navigation*`. An app's request
 * for another set (`sandbox-resource-ready` `params.sandbox`) is ignored: the host does not widen it.
 */
export const MCP_APP_INNER_SANDBOX = 'allow-scripts allow-forms allow-popups allow-modals';

/**
 * Content-Security-Policy of the proxy page and of the app inside it (the proxy also writes it
 * as a `<meta>` at the head of the app document, so the policy holds even when the host serves
 * the page without the header). No network at all — `connect-src`, `img-src https:` and the like
 * are absent — so an app cannot send what it sees anywhere but through the host; apps must be
 * self-contained (inline scripts and styles, `data:`/`blob:` media).
 */
export const MCP_APP_SANDBOX_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; media-src data: blob:; font-src data:; form-action 'none'; base-uri 'none'";

const PROXY_SCRIPT = `(() => {
  'use strict';
  const HOST = window.parent;
  // The host is this page's own origin: the proxy is served same-origin, by design.
  const HOST_ORIGIN = window.location.origin;
  if (HOST === window) return;
  const SANDBOX = ${JSON.stringify(MCP_APP_INNER_SANDBOX)};
  const META = '<meta http-equiv="Content-Security-Policy" content="' + ${JSON.stringify(MCP_APP_SANDBOX_CSP)} + '">';
  let appWindow = null;
  const isRpc = (data) => data !== null && typeof data === 'object' && data.jsonrpc === '2.0';
  const isSandboxMethod = (data) => typeof data.method === 'string' && data.method.indexOf('ui/notifications/sandbox-') === 0;
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (!isRpc(data)) return;
    if (event.source === HOST && event.origin === HOST_ORIGIN) {
      if (data.method === 'ui/notifications/sandbox-resource-ready') {
        const html = data.params && data.params.html;
        if (appWindow !== null || typeof html !== 'string') return;
        const frame = document.createElement('iframe');
        frame.setAttribute('sandbox', SANDBOX);
        frame.setAttribute('title', document.title);
        frame.setAttribute('referrerpolicy', 'no-referrer');
        // After a doctype, so the app keeps standards mode; first otherwise, before any app script.
        const doctype = /^\\s*<!doctype[^>]*>/i.exec(html);
        frame.srcdoc = doctype ? doctype[0] + META + html.slice(doctype[0].length) : META + html;
        document.body.appendChild(frame);
        appWindow = frame.contentWindow;
        return;
      }
      if (appWindow !== null && !isSandboxMethod(data)) appWindow.postMessage(data, '*');
      return;
    }
    // The app has an opaque origin: its messages say "null". Anything else is someone else.
    if (appWindow !== null && event.source === appWindow && event.origin === 'null') {
      if (!isSandboxMethod(data)) HOST.postMessage(data, HOST_ORIGIN);
    }
  });
  HOST.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, HOST_ORIGIN);
})();`;

/**
 * The sandbox proxy page. Serve it from the page's own origin (any path; pass the URL as
 * `proxyUrl`), ideally with `Content-Security-Policy:` {@link MCP_APP_SANDBOX_CSP} and
 * `Cache-Control: no-store` — {@link MCP_APP_SANDBOX_PROXY_HEADERS}.
 *
 * @example
 * ```ts
 * app.get('/mcp-app-sandbox.html', (c) => c.body(MCP_APP_SANDBOX_PROXY_HTML, 200, MCP_APP_SANDBOX_PROXY_HEADERS));
 * ```
 */
export const MCP_APP_SANDBOX_PROXY_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${MCP_APP_SANDBOX_CSP}">
<title>MCP App</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style>
</head>
<body>
<script>${PROXY_SCRIPT}</script>
</body>
</html>
`;

/** Response headers for {@link MCP_APP_SANDBOX_PROXY_HTML}. */
export const MCP_APP_SANDBOX_PROXY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': MCP_APP_SANDBOX_CSP,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
});
