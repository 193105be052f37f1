/**
 * `process_chunk` (`agent/streaming_parser.yaml`): each step's chunk goes to
 * {@link createA2uiStreamParser}; the parts it returns must equal the step's `expect` (text parts
 * and their messages, grouped as the reference SDK's `ResponsePart`), or the chunk must throw the
 * step's `expectError`. The case's catalog gives the version, the component schemas, extra
 * cuttable keys and the validator (its simplified schemas compiled with core's Ajv set-up).
 */
import { A2uiError } from '../../../errors/a2ui-error.js';
import { isRecord } from '../../../protocol/guards.js';
import { createA2uiStreamParser } from '../../../streaming/a2ui-stream-parser.js';
import type { A2uiStreamVersion } from '../../../streaming/stream-dialect.js';
import type { A2uiStreamPart } from '../../../streaming/stream-types.js';
import type { ConformanceActionHandler } from '../conformance-action.js';
import type { ExpectedError } from '../conformance-case.js';
import {
  createConformanceStreamValidator,
  type StreamingCatalogConfig,
} from '../conformance-stream-validator.js';
import { jsonEquals, show } from '../match-expected.js';

/** A part as the suite writes it: the reference SDK's `ResponsePart` (text, then its messages). */
interface SuitePart {
  text: string;
  a2ui?: unknown[];
}

/** Our parts in the suite's grouping: messages that follow a text part belong to it. */
function toSuiteParts(parts: readonly A2uiStreamPart[]): SuitePart[] {
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

function expectedSuiteParts(expect: unknown): SuitePart[] {
  if (!Array.isArray(expect)) return [];
  return expect.map((part: unknown) => {
    const record = isRecord(part) ? part : {};
    const text = typeof record.text === 'string' ? record.text : '';
    return Array.isArray(record.a2ui) ? { text, a2ui: record.a2ui } : { text };
  });
}

/**
 * The suite's categories for the parser's errors (the reference SDK's exception classes): the
 * parser reports topology problems as `VALIDATION_FAILED` with a `data.reason`.
 */
const STREAM_ERROR_CATEGORIES: Readonly<Record<string, (error: A2uiError) => boolean>> = {
  ParseError: (error) => error.code === 'INVALID_JSON',
  ValidationError: (error) => error.code === 'VALIDATION_FAILED',
  IntegrityError: (error) => error.data?.reason === 'missing-root',
  RecursionError: (error) =>
    error.data?.reason === 'cycle' || error.data?.reason === 'self-reference',
};

/** Why `thrown` is not the expected error, or undefined when it is. */
function errorMismatch(thrown: unknown, expected: ExpectedError): string | undefined {
  if (!A2uiError.isInstance(thrown))
    return `expected an error ${show(expected)}, got ${show(thrown)}`;
  const { category, message } =
    typeof expected === 'string' ? { category: undefined, message: expected } : expected;
  if (category !== undefined && !(STREAM_ERROR_CATEGORIES[category]?.(thrown) ?? false)) {
    return `expected a ${category}, got ${thrown.code} (${thrown.message})`;
  }
  // A regular expression, as the reference harness matches with `re.search`.
  if (message !== undefined && !new RegExp(message).test(thrown.message)) {
    return `expected an error matching ${show(message)}, got ${show(thrown.message)}`;
  }
  return undefined;
}

/** The `process_chunk` handler. */
export const processChunk: ConformanceActionHandler = ({ testCase, version, context }) => {
  const catalog = (testCase.catalog ?? {}) as StreamingCatalogConfig;
  const readJson = (path: string) => context.readJson(path) as Record<string, unknown>;
  const parser = createA2uiStreamParser({
    version: version as A2uiStreamVersion,
    catalogComponents: (catalog.catalogSchema?.components ?? {}) as Record<string, unknown>,
    cuttableKeys: catalog.customCuttableKeys ?? [],
    validateMessage: testCase.disableValidation
      ? false
      : createConformanceStreamValidator({ ...catalog, protocolVersion: version }, readJson),
  });
  const mismatches: string[] = [];
  for (const [index, step] of (testCase.steps ?? []).entries()) {
    const chunk = String(step.input ?? '');
    if (step.expectError !== undefined) {
      let thrown: unknown;
      try {
        parser.push(chunk);
      } catch (error) {
        thrown = error;
      }
      const mismatch = errorMismatch(thrown, step.expectError);
      if (mismatch !== undefined) mismatches.push(`step ${index}: ${mismatch}`);
      break;
    }
    const actual = toSuiteParts(parser.push(chunk));
    const expected = expectedSuiteParts(step.expect);
    if (!jsonEquals(actual, expected)) {
      mismatches.push(`step ${index}: expected ${show(expected)}, got ${show(actual)}`);
    }
  }
  return mismatches;
};
