/**
 * The REST server of the kill trials (`runKillTrial` of `@a2ui-ts/core/testing/node`), in a child
 * process: hosts the applying agent on the port it is given, prints its URL, and shuts down
 * gracefully on SIGTERM.
 */
import { readFaultServerEnv } from '@a2ui-ts/core/testing/node';
import { createRestServer } from '../src/server/create-rest-server.js';
import { listen } from './listen.js';

const { port, agent } = readFaultServerEnv();
const node = await listen(createRestServer({ agent }), port);
process.stdout.write(`${node.url}\n`);
process.once('SIGTERM', () => void node.close().then(() => process.exit(0)));
