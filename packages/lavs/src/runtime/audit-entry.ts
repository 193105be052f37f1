/** One audited operation (spec §6.1 "Auditing"): a structured log line per call. */
export interface LavsAuditEntry {
  /** When it ended, ISO 8601. */
  time: string;
  /** `lavs/call`, `lavs/subscribe`, or `lavs/data` for a subscription handler run by the runtime. */
  method: 'lavs/call' | 'lavs/subscribe' | 'lavs/data';
  /** The endpoint id as the client named it. */
  endpoint: string;
  /** Who called: what `authenticate` returned (`null` when nobody is authenticated). */
  principal: unknown;
  /** How long it took, in milliseconds. */
  durationMs: number;
  /** `ok`, or the error code the client got. */
  outcome: 'ok' | 'error';
  /** The LAVS error code, on `error`. */
  code?: string;
  /** The permission that refused it, when one did. */
  permission?: string;
  /** What the handler said on the way (a script's stderr, a function's error): for the log only. */
  detail?: string;
}

/** Receives audit entries. */
export type LavsAuditLogger = (entry: LavsAuditEntry) => void;

/** The default logger: one JSON line per entry on stderr. */
export const stderrAuditLogger: LavsAuditLogger = (entry) => {
  process.stderr.write(`${JSON.stringify(entry)}\n`);
};
