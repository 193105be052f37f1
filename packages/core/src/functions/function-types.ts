/**
 * The contract between the binding engine (`DataContext`) and catalog functions (digest §8.1).
 */
import type { FunctionReturnType } from '../protocol/messages.js';

/** What a function implementation may use while it runs. */
export interface FunctionContext {
  /** BCP 47 locale for `Intl` formatting; `undefined` = the runtime default. */
  readonly locale: string | undefined;
  /**
   * Reads a data path, absolute or relative to the caller's scope. The read is recorded as a
   * dependency, so the calling expression re-evaluates when that path changes.
   */
  read(path: string): unknown;
  /** Calls another function of the same catalog with already-resolved args (used by `formatString`). */
  call(name: string, args: Record<string, unknown>): unknown;
  /**
   * Opens a URL after the URL policy allowed it. Present only while an action runs from a user
   * gesture; side-effect functions throw `EXPRESSION_ERROR` when it is absent.
   */
  readonly openUrl: ((url: string) => void) | undefined;
}

/**
 * One catalog function. `execute` receives args whose dynamic values (`{path}`, `{call}`, and
 * arrays of them) are already resolved in the caller's scope.
 */
export interface FunctionImplementation {
  readonly name: string;
  readonly returnType: FunctionReturnType;
  /** @throws A2uiError `EXPRESSION_ERROR` for bad arguments. */
  execute(args: Record<string, unknown>, context: FunctionContext): unknown;
}
