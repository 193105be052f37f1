/**
 * The WebSocket server of the kill trials (`runKillTrial` of `@a2ui-ts/core/testing/node`), in a
 * child process: hosts the applying agent on the port it is given, prints its URL, and shuts down
 * gracefully on SIGTERM.
 */
import { readFaultServerEnv } from '@a2ui-ts/core/testing/node';
import { serveWs } from '../src/server/attach-ws-server.js';
import { createWsServer } from '../src/server/create-ws-server.js';

const { port, agent } = readFaultServerEnv();
const node = await serveWs(createWsServer({ agent }), { port });
process.stdout.write(`${node.url}\n`);
process.once('SIGTERM', () => void node.close().then(() => process.exit(0)));
