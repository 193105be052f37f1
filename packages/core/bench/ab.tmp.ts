// Temporary A/B: main's core vs this branch's, interleaved in one process.
import * as branch from '../src/index.js';
import { loadVersionCorpora } from './version-corpora.js';
const main = (await import('/work/main/packages/core/src/index.ts')) as typeof branch;
const corpora = loadVersionCorpora();
const REPEATS = 20;
function run(core: typeof branch, streams: readonly (readonly string[])[]): number {
  const start = process.hrtime.bigint();
  for (let r = 0; r < REPEATS; r++) {
    for (const stream of streams) {
      const p = new core.MessageProcessor({ catalogs: core.createDefaultCatalogs() });
      for (const text of stream) p.process(text);
    }
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const c of corpora) {
  for (let w = 0; w < 3; w++) { run(main, c.streams); run(branch, c.streams); }
  const a: number[] = []; const b: number[] = [];
  for (let round = 0; round < 21; round++) {
    if (round % 2) { a.push(run(main, c.streams)); b.push(run(branch, c.streams)); }
    else { b.push(run(branch, c.streams)); a.push(run(main, c.streams)); }
  }
  const n = c.messages * REPEATS;
  const ma = median(a), mb = median(b);
  console.log(`${c.version}: min main ${(Math.min(...a) * 1000 / n).toFixed(2)} branch ${(Math.min(...b) * 1000 / n).toFixed(2)} ratio ${(Math.min(...b) / Math.min(...a)).toFixed(3)}; median main ${(ma * 1000 / n).toFixed(2)} µs/msg (${Math.min(...a).toFixed(0)}–${Math.max(...a).toFixed(0)} ms), branch ${(mb * 1000 / n).toFixed(2)} µs/msg (${Math.min(...b).toFixed(0)}–${Math.max(...b).toFixed(0)} ms), branch/main ${(mb / ma).toFixed(3)}`);
}
