/**
 * Runs one case of the official conformance suite through its action's handler.
 */
import { CONFORMANCE_ACTION_HANDLERS } from './action-handlers.js';
import type { ConformanceContext } from './case-catalogs.js';
import type { ConformanceProtocolVersion, LocatedConformanceCase } from './conformance-case.js';
import { NOT_APPLICABLE_CASES } from './not-applicable.js';

/**
 * The protocol versions this engine runs cases of. A case of another version fails (it is not
 * skipped): the suite's README asks every harness to declare this set.
 */
export const SUPPORTED_PROTOCOL_VERSIONS: ReadonlySet<ConformanceProtocolVersion> = new Set([
  'v0.8',
  'v0.9',
  'v0.9.1',
  'v1.0',
]);

/** What became of one case. */
export interface ConformanceOutcome {
  readonly status: 'passed' | 'failed' | 'not-applicable';
  /** Mismatches (failed) or the table's reason (not applicable). */
  readonly details: readonly string[];
}

/**
 * Runs `located` and says whether the engine agrees with it. Never throws: an exception inside a
 * handler is a failure of the case, with its message.
 *
 * @param located - the case, its file and version
 * @param context - file access for the catalogs and data the case names
 */
export async function runConformanceCase(
  located: LocatedConformanceCase,
  context: ConformanceContext,
): Promise<ConformanceOutcome> {
  const { testCase, version } = located;
  const excluded = NOT_APPLICABLE_CASES[testCase.name];
  if (excluded && excluded.file === located.file)
    return { status: 'not-applicable', details: [excluded.reason] };
  if (!SUPPORTED_PROTOCOL_VERSIONS.has(version))
    return { status: 'failed', details: [`protocol version ${version} is not supported`] };
  const handler = CONFORMANCE_ACTION_HANDLERS[testCase.action];
  if (!handler)
    return { status: 'failed', details: [`no handler for action "${testCase.action}"`] };
  try {
    const details = await handler({ testCase, version, context });
    return { status: details.length === 0 ? 'passed' : 'failed', details };
  } catch (error) {
    const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { status: 'failed', details: [`the handler threw: ${reason}`] };
  }
}
