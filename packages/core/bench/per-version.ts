/**
 * The per-version comparison alone (`pnpm --filter @a2ui-ts/core bench:per-version`): prints the
 * paragraph and table `pnpm bench` writes under "Per protocol version" (see `version-table.ts`),
 * with the machine; writes nothing. Environment: `ROUNDS` (default 15).
 */
import { measuredBy } from '../src/testing/node/index.js';
import { measureVersionTable } from './version-table.js';

const loadAtStart = (await import('node:os')).loadavg()[0] ?? 0;
const table = measureVersionTable({
  rounds: Number(process.env.ROUNDS ?? 15),
  onRound: (round) => process.stderr.write(`round ${round + 1} done\n`),
});
console.log(
  `${measuredBy('@a2ui-ts/core', loadAtStart).replace('core bench`', 'core bench:per-version`')}.\n`,
);
console.log(table.markdown);
