/**
 * The migrated example fixtures are what `migrateMessages` writes today, and they mean what the
 * originals mean wherever nothing was reported lost.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDefaultCatalogs } from '../catalog/index.js';
import { migrateMessages } from '../migrate/migrate-messages.js';
import { MessageProcessor } from '../state/message-processor.js';
import { snapshotState } from '../state/snapshot.js';
import { V08_STANDARD_CATALOG_ID } from '../versions/v0-8/v08-messages.js';
import { EXAMPLE_STREAMS } from './example-streams.js';
import {
  MIGRATED_EXAMPLE_FOLDERS,
  MIGRATION_REPORT_FILE,
  migrateBasicExamples,
} from './migrated-examples.js';

const fixture = (folder: string, file: string): unknown =>
  JSON.parse(
    readFileSync(fileURLToPath(new URL(`./fixtures/${folder}/${file}`, import.meta.url)), 'utf8'),
  );

const replay = (messages: readonly unknown[]) => {
  const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
  const { errors } = processor.process([...messages]);
  return { errors, state: snapshotState(processor) };
};

describe('migrated example fixtures', () => {
  for (const [version, folder] of Object.entries(MIGRATED_EXAMPLE_FOLDERS)) {
    it(`${folder} is up to date (pnpm --filter @a2ui-ts/core generate)`, () => {
      const { files, report } = migrateBasicExamples(version as 'v0.8' | 'v1.0');
      expect(Object.keys(files)).toHaveLength(12);
      for (const [file, sample] of Object.entries(files))
        expect(fixture(folder, file)).toEqual(sample);
      expect(fixture(folder, MIGRATION_REPORT_FILE)).toEqual(report);
    });
  }

  it('v0.8 examples replay without errors, and as the v0.9 originals where nothing was lost', () => {
    const { files, report } = migrateBasicExamples('v0.8');
    let exact = 0;
    for (const example of EXAMPLE_STREAMS.filter((entry) => entry.catalog === 'basic')) {
      const migrated = replay(files[example.file]!.messages);
      expect(migrated.errors, example.file).toEqual([]);
      const lost = report[example.file]!.filter((issue) => !issue.path.endsWith('/sendDataModel'));
      if (lost.length > 0) continue;
      const original = replay(example.messages).state;
      // sendDataModel is the one difference v0.8 cannot carry, and the v0.8 surface names the
      // v0.8 standard catalog; everything else must match.
      for (const surface of Object.values(original.surfaces)) {
        surface.sendDataModel = false;
        surface.catalogId = V08_STANDARD_CATALOG_ID;
      }
      expect(migrated.state, example.file).toEqual(original);
      exact++;
    }
    expect(exact).toBeGreaterThanOrEqual(3);
  });

  it('v1.0 examples keep their Text headings as Markdown and come back to the v0.9 originals', () => {
    const { files, report } = migrateBasicExamples('v1.0');
    for (const example of EXAMPLE_STREAMS.filter((entry) => entry.catalog === 'basic')) {
      // v1.0 writes a heading as a `#` line (its catalog has no heading variant): nothing lost.
      expect(report[example.file], example.file).toEqual([]);
      const back = migrateMessages(files[example.file]!.messages, { to: 'v0.9' });
      expect(back.issues).toEqual([]);
      const expected = replay(example.messages).state;
      expect(replay(back.messages).state, example.file).toEqual(stripReturnTypes(expected));
    }
  });
});

/** v1.0 carries no `returnType` on calls (the catalog defines it): the original without them. */
function stripReturnTypes<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (key, item) =>
    key === 'returnType' ? undefined : item,
  ) as T;
}
