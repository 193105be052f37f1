/**
 * The official A2UI conformance suite (`src/testing/fixtures/conformance/`, Apache-2.0, Google
 * LLC): every case of `core/` and `agent/` is one test. Prints one summary line per protocol
 * version. Run a subset with `A2UI_CONFORMANCE_FILTER=<text or /regex/>` (matched against
 * `file::name`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ConformanceProtocolVersion } from '../conformance/conformance-case.js';
import { NOT_APPLICABLE_CASES } from '../conformance/not-applicable.js';
import {
  type ConformanceOutcome,
  runConformanceCase,
} from '../conformance/run-conformance-case.js';
import { createConformanceContext, loadConformanceSuite } from './conformance-suite.js';

const filter = process.env.A2UI_CONFORMANCE_FILTER;
const cases = loadConformanceSuite({ filter });
const context = createConformanceContext();
const outcomes = new Map<ConformanceProtocolVersion, ConformanceOutcome['status'][]>();

describe('official conformance suite', () => {
  it('loads every suite file against conformance_schema.json', () => {
    const all = loadConformanceSuite({ folders: ['core', 'agent', 'extensions'] });
    expect(all.length).toBeGreaterThan(200);
    // Every not-applicable entry names a real case of its file.
    for (const [name, entry] of Object.entries(NOT_APPLICABLE_CASES))
      expect(
        all.some((c) => c.file === entry.file && c.testCase.name === name),
        name,
      ).toBe(true);
  });

  for (const located of cases) {
    it(`${located.file} › ${located.testCase.name} (${located.version})`, async () => {
      const outcome = await runConformanceCase(located, context);
      const list = outcomes.get(located.version) ?? [];
      list.push(outcome.status);
      outcomes.set(located.version, list);
      expect(outcome.status === 'failed' ? outcome.details : [], outcome.status).toEqual([]);
    });
  }

  afterAll(() => {
    for (const [version, list] of [...outcomes].sort(([a], [b]) => a.localeCompare(b))) {
      const passed = list.filter((status) => status === 'passed').length;
      const skipped = list.filter((status) => status === 'not-applicable').length;
      const run = list.length - skipped;
      const note = skipped > 0 ? `, ${skipped} not applicable` : '';
      console.log(
        `conformance ${version}: ${passed}/${run} passed (${Math.round((passed / Math.max(run, 1)) * 100)}%)${note}${filter ? ` [filter ${filter}]` : ''}`,
      );
    }
  });
});
