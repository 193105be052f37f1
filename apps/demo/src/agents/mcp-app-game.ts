/**
 * The demo's MCP App: "Catch the dot", a tiny game in one self-contained HTML document (the MCP
 * Apps sandbox allows no network). It speaks the MCP Apps JSON-RPC by hand — `ui/initialize`,
 * then `ui/update-model-context` with `{ score }` on every catch — to `window.parent` only, and
 * reports its height so the frame fits it.
 */
export const CATCH_THE_DOT_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Catch the dot</title>
<style>
  body { margin: 0; font: 14px system-ui, sans-serif; }
  #field { position: relative; height: 160px; background: #eef3fb; overflow: hidden; }
  #dot { position: absolute; width: 36px; height: 36px; border-radius: 50%; border: 0;
         background: #0b57d0; color: #fff; cursor: pointer; }
  p { margin: 8px; }
</style>
</head>
<body>
<p>Catch the dot: each catch scores a point.</p>
<div id="field"><button id="dot" type="button" aria-label="Catch the dot" disabled></button></div>
<script>
(() => {
  let nextId = 1;
  const pending = new Map();
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
  });
  const notify = (method, params) => parent.postMessage({ jsonrpc: '2.0', method, params }, '*');
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return; // only the host (through its proxy) answers
    const message = event.data;
    const waiting = message && message.jsonrpc === '2.0' && !message.method && pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(message.error); else waiting.resolve(message.result);
  });
  const dot = document.getElementById('dot');
  const field = document.getElementById('field');
  let score = 0;
  const move = () => {
    dot.style.left = Math.floor(Math.random() * (field.clientWidth - 36)) + 'px';
    dot.style.top = Math.floor(Math.random() * (field.clientHeight - 36)) + 'px';
  };
  dot.addEventListener('click', () => {
    score += 1;
    move();
    void request('ui/update-model-context', { structuredContent: { score } });
  });
  request('ui/initialize', {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'catch-the-dot', version: '1.0.0' },
    appCapabilities: {},
  }).then(() => {
    notify('ui/notifications/initialized', {});
    notify('ui/notifications/size-changed', { height: document.documentElement.scrollHeight });
    move();
    dot.disabled = false;
  });
})();
</script>
</body>
</html>`;
