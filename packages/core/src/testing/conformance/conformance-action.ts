/**
 * What an action handler of the conformance runner is: a function from a case to the list of
 * ways the engine disagreed with it (empty = the case passed). One file per action under
 * `actions/`, so that each feature adds or extends its own handler.
 */
import type { ConformanceContext } from './case-catalogs.js';
import type { ConformanceCase, ConformanceProtocolVersion } from './conformance-case.js';

/** One case as a handler receives it. */
export interface ConformanceRun {
  readonly testCase: ConformanceCase;
  /** The version the case is written against. */
  readonly version: ConformanceProtocolVersion;
  readonly context: ConformanceContext;
}

/**
 * Runs one case of its action.
 * @returns one line per mismatch between the case and the engine; empty when it passes
 */
export type ConformanceActionHandler = (
  run: ConformanceRun,
) => readonly string[] | Promise<readonly string[]>;

/**
 * The handler of an action whose feature is not built yet: every case of it fails, naming who
 * builds it (an unimplemented case is a failure, never a skip).
 *
 * @param action - the action
 * @param owner - the work item that implements it
 */
export function notImplemented(action: string, owner: string): ConformanceActionHandler {
  return () => [`action "${action}" has no implementation in this engine yet (${owner})`];
}
