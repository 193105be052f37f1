/**
 * Conformance handler for the action `process_chunk` (`agent/streaming_parser.yaml`): feeds each
 * step's chunk to {@link createA2uiStreamParser} and compares the parts it returns, or the error
 * it throws, with the case's expectation.
 */
import { A2uiError } from '../../errors/a2ui-error.js';
import { isRecord } from '../../protocol/guards.js';
import { createA2uiStreamParser } from '../../streaming/a2ui-stream-parser.js';
import type { A2uiStreamVersion } from '../../streaming/stream-dialect.js';
import type { A2uiStreamPart } from '../../streaming/stream-types.js';
import type { A2uiStreamValidator } from '../../streaming/stream-validator.js';
import { createConformanceStreamValidator } from './conformance-stream-validator.js';

/** The `catalog` block of a streaming-parser case. */
export interface StreamingCatalogConfig {
  protocolVersion: string;
  s2cSchema?: string | Record<string, unknown>;
  commonTypesSchema?: string | Record<string, unknown>;
  catalogSchema?: Record<string, unknown>;
  customCuttableKeys?: string[];
}

/** One `process_chunk` case as the YAML holds it. */
export interface ProcessChunkCase {
  name: string;
  catalog: StreamingCatalogConfig;
  disableValidation?: boolean;
  steps: { input: string; expect?: unknown; expectError?: unknown }[];
}

/** A part in the suite's shape: the Python SDK's `ResponsePart` (text, then its messages). */
export interface SuitePart {
  text: string;
  a2ui?: unknown[];
}

/**
 * Parts in the suite's shape: messages that follow a text part belong to that part, as the
 * Python SDK's `ResponsePart` groups them.
 */
export function toSuiteParts(parts: readonly A2uiStreamPart[]): SuitePart[] {
  const suiteParts: SuitePart[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      suiteParts.push({ text: part.text });
      continue;
    }
    const last = suiteParts.at(-1);
    if (last !== undefined && last.a2ui === undefined) last.a2ui = [...part.messages];
    else suiteParts.push({ text: '', a2ui: [...part.messages] });
  }
  return suiteParts;
}

/** The suite's expectation in the same shape (`text` defaults to `''`). */
export function expectedSuiteParts(expect: unknown): SuitePart[] {
  if (!Array.isArray(expect)) return [];
  return expect.map((part: unknown) => {
    const record = isRecord(part) ? part : {};
    const text = typeof record.text === 'string' ? record.text : '';
    return Array.isArray(record.a2ui) ? { text, a2ui: record.a2ui } : { text };
  });
}

/** The suite's error categories (Python exception classes) as our error's code and reason. */
const CATEGORY_MATCHERS: Record<string, (error: A2uiError) => boolean> = {
  ParseError: (error) => error.code === 'INVALID_JSON',
  ValidationError: (error) => error.code === 'VALIDATION_FAILED',
  IntegrityError: (error) => error.data?.reason === 'missing-root',
  RecursionError: (error) =>
    error.data?.reason === 'cycle' || error.data?.reason === 'self-reference',
};

/**
 * Whether a thrown error is what `expectError` asks for: a message substring (regular
 * expression, as the reference harness uses `re.search`) or `{category, message}`.
 */
export function matchesExpectedError(error: unknown, expectError: unknown): boolean {
  if (!A2uiError.isInstance(error)) return false;
  const { category, message } = isRecord(expectError)
    ? { category: expectError.category as string | undefined, message: expectError.message }
    : { category: undefined, message: expectError };
  if (category !== undefined && !(CATEGORY_MATCHERS[category]?.(error) ?? false)) return false;
  return typeof message !== 'string' || new RegExp(message).test(error.message);
}

/** The outcome of one step, for the runner to assert on. */
export type ProcessChunkStepOutcome =
  | { kind: 'parts'; actual: SuitePart[]; expected: SuitePart[] }
  | { kind: 'error'; expected: unknown; thrown: unknown };

/**
 * Runs one case, step by step.
 *
 * @param loadJson - Reads a suite file named relative to the suite's root (`test_data/…`).
 */
export function runProcessChunkCase(
  testCase: ProcessChunkCase,
  loadJson: (path: string) => Record<string, unknown>,
): ProcessChunkStepOutcome[] {
  const { catalog } = testCase;
  const version = catalog.protocolVersion as A2uiStreamVersion;
  const validateMessage: A2uiStreamValidator | false = testCase.disableValidation
    ? false
    : createConformanceStreamValidator(catalog, loadJson);
  const parser = createA2uiStreamParser({
    version,
    catalogComponents: (catalog.catalogSchema?.components ?? {}) as Record<string, unknown>,
    cuttableKeys: catalog.customCuttableKeys ?? [],
    validateMessage,
  });
  const outcomes: ProcessChunkStepOutcome[] = [];
  for (const step of testCase.steps) {
    if (step.expectError !== undefined) {
      let thrown: unknown;
      try {
        parser.push(step.input);
      } catch (error) {
        thrown = error;
      }
      outcomes.push({ kind: 'error', expected: step.expectError, thrown });
      break;
    }
    const actual = toSuiteParts(parser.push(step.input));
    outcomes.push({ kind: 'parts', actual, expected: expectedSuiteParts(step.expect) });
  }
  return outcomes;
}
