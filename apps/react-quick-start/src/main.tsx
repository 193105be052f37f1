/**
 * The @a2ui-ts/react-renderer README's quick start, as written there: a client on the SSE +
 * JSON-RPC transport, the renderer with its stylesheet. `src/server.ts` serves the agent at /a2ui.
 */
import { A2uiClient } from '@a2ui-ts/core';
import { A2UIRenderer } from '@a2ui-ts/react-renderer';
import '@a2ui-ts/react-renderer/styles.css';
import { connectSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc';
import { createRoot } from 'react-dom/client';

const client = new A2uiClient({ transport: connectSseJsonRpc({ url: '/a2ui' }) });
client.connect();

createRoot(document.getElementById('app')!).render(
  <A2UIRenderer
    client={client}
    colorScheme="auto"
    rootTimeoutMs={10_000}
    onActionError={(error) => console.warn('action not sent', error)}
  />,
);
// Without a transport: client.process(messages) applies server messages directly.
