/**
 * Writes the official basic examples migrated to v0.8 and v1.0 into
 * `src/testing/fixtures/v0_8/basic/` and `src/testing/fixtures/v1_0/basic/`, with a
 * `migration-report.json` of what each lost. Run with `pnpm --filter @a2ui-ts/core generate`
 * after changing `migrateMessages`; commit the result (a test fails when it is stale).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  MIGRATED_EXAMPLE_FOLDERS,
  MIGRATION_REPORT_FILE,
  migrateBasicExamples,
} from '../src/testing/migrated-examples.js';

const fixtures = fileURLToPath(new URL('../src/testing/fixtures/', import.meta.url));
for (const [version, folder] of Object.entries(MIGRATED_EXAMPLE_FOLDERS)) {
  const directory = join(fixtures, folder);
  mkdirSync(directory, { recursive: true });
  const { files, report } = migrateBasicExamples(version as 'v0.8' | 'v1.0');
  for (const [name, sample] of Object.entries(files)) {
    writeFileSync(join(directory, name), `${JSON.stringify(sample, null, 2)}\n`);
  }
  writeFileSync(join(directory, MIGRATION_REPORT_FILE), `${JSON.stringify(report, null, 2)}\n`);
  const lost = Object.values(report).reduce((sum, issues) => sum + issues.length, 0);
  console.log(`${folder}: ${Object.keys(files).length} examples, ${lost} things not expressible`);
}
