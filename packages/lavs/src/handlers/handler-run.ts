import type { Permissions } from '../manifest/manifest-types.js';

/** What every handler runner gets for one call. */
export interface HandlerRun {
  /** The service directory (absolute); relative paths resolve against it. */
  readonly baseDir: string;
  /** The endpoint's id, for messages. */
  readonly endpointId: string;
  /** The validated input (defaults filled in). */
  readonly input: unknown;
  /** The endpoint's effective permissions. */
  readonly permissions: Permissions;
  /** How long the handler may run, in milliseconds. */
  readonly timeoutMs: number;
  /** Most bytes of output (stdout, a response body) read from the handler. */
  readonly maxOutputBytes: number;
  /** How long a script has between SIGTERM and SIGKILL once its time is up, in milliseconds. */
  readonly killGraceMs: number;
  /** Aborts the run (the runtime is closing, the client went away). */
  readonly signal: AbortSignal;
}

/** Where a handler's log text goes (stderr of a script, a function's error message). */
export type HandlerDiagnostics = (detail: string) => void;
