/**
 * Repeated kill trials of the REST binding (a script, not a test): prints the sums of
 * `runKillTrials` — actions, acknowledged, applied, lost, doubled, told failed but applied.
 *
 *   node --conditions=@a2ui-ts/source --import tsx test/kill-trials.ts [trials, default 20]
 */
import { fileURLToPath } from 'node:url';
import { runKillTrials } from '@a2ui-ts/core/testing/node';
import { connectRest } from '../src/client/connect-rest.js';
import { FAST_RECONNECT } from './harness.js';

const started = Date.now();
const totals = await runKillTrials({
  script: fileURLToPath(new URL('./fault-server.ts', import.meta.url)),
  connect: (url) => connectRest({ url, reconnect: FAST_RECONNECT }),
  trials: Number(process.argv[2] ?? 20),
});
console.log(JSON.stringify({ binding: 'rest', ...totals, seconds: (Date.now() - started) / 1000 }));
