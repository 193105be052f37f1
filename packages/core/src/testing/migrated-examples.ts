/**
 * The official basic-catalog example streams migrated to v0.8 and v1.0 with `migrateMessages`,
 * committed under `fixtures/v0_8/basic/` and `fixtures/v1_0/basic/` (the demo gallery and the
 * benchmarks stream them). `scripts/generate-migrated-fixtures.ts` writes them;
 * `migrated-examples.test.ts` fails when they are stale.
 */
import { type MigrationVersion, migrateMessages } from '../migrate/migrate-messages.js';
import type { MigrationIssue } from '../migrate/migration-issue.js';
import { EXAMPLE_STREAMS } from './example-streams.js';

/** The versions examples are migrated to, and their fixture folders. */
export const MIGRATED_EXAMPLE_FOLDERS: Readonly<Record<'v0.8' | 'v1.0', string>> = {
  'v0.8': 'v0_8/basic',
  'v1.0': 'v1_0/basic',
};

/** Name of the file beside the migrated examples that lists what each migration lost. */
export const MIGRATION_REPORT_FILE = 'migration-report.json';

/**
 * Every basic-catalog example migrated to `to`: file name → the sample file `{name,
 * description, messages}` in that version, plus the report of what could not be expressed.
 */
export function migrateBasicExamples(to: MigrationVersion): {
  files: Record<string, { name: string; description: string; messages: Record<string, unknown>[] }>;
  report: Record<string, MigrationIssue[]>;
} {
  const files: Record<
    string,
    { name: string; description: string; messages: Record<string, unknown>[] }
  > = {};
  const report: Record<string, MigrationIssue[]> = {};
  for (const example of EXAMPLE_STREAMS) {
    if (example.catalog !== 'basic') continue;
    const { messages, issues } = migrateMessages(example.messages, { to });
    files[example.file] = { name: example.name, description: example.description, messages };
    report[example.file] = issues;
  }
  return { files, report };
}
