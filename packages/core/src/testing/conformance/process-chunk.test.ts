/**
 * The official streaming-parser conformance cases (`agent/streaming_parser.yaml`), every one.
 * (Temporary loader until the suite-wide runner in this folder takes these cases over.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  matchesExpectedError,
  type ProcessChunkCase,
  runProcessChunkCase,
} from './process-chunk.js';

const SUITE = new URL('../fixtures/conformance/', import.meta.url);
const loadJson = (path: string) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(path, SUITE)), 'utf8')) as Record<string, unknown>;
const cases = parse(
  readFileSync(fileURLToPath(new URL('agent/streaming_parser.yaml', SUITE)), 'utf8'),
) as ProcessChunkCase[];

describe('conformance: agent/streaming_parser.yaml (process_chunk)', () => {
  it('holds the 76 cases of the suite', () => {
    expect(cases).toHaveLength(76);
  });

  it.each(cases.map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) => {
    const outcomes = runProcessChunkCase(testCase, loadJson);
    expect(outcomes).toHaveLength(
      testCase.steps.findIndex((step) => step.expectError !== undefined) + 1 ||
        testCase.steps.length,
    );
    outcomes.forEach((outcome, step) => {
      if (outcome.kind === 'parts') {
        expect(outcome.actual, `step ${step}`).toEqual(outcome.expected);
      } else {
        expect(
          matchesExpectedError(outcome.thrown, outcome.expected),
          `step ${step}: ${String(outcome.thrown)}`,
        ).toBe(true);
      }
    });
  });
});
