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

/** What {@link toAuditEntry} builds an entry from. */
export interface AuditFacts {
  method: LavsAuditEntry['method'];
  endpoint: string;
  principal: unknown;
  /** `performance.now()` when the operation started. */
  startedMs: number;
  /** What was thrown; absent on success. */
  error?: unknown;
  /** What the handler said. */
  detail?: readonly string[];
}

/** The audit entry of a finished operation. */
export function toAuditEntry(facts: AuditFacts): LavsAuditEntry {
  const failed = 'error' in facts;
  const error = facts.error as { code?: unknown; data?: { permission?: unknown } } | undefined;
  const code = typeof error?.code === 'string' ? error.code : 'INTERNAL_ERROR';
  const permission = error?.data?.permission;
  const detail = [...(facts.detail ?? [])];
  // An unexpected failure's own text is for the log, never the client.
  if (failed && typeof error?.code !== 'string' && facts.error instanceof Error)
    detail.push(facts.error.message);
  return {
    time: new Date().toISOString(),
    method: facts.method,
    endpoint: facts.endpoint,
    principal: facts.principal ?? null,
    durationMs: Math.round(performance.now() - facts.startedMs),
    outcome: failed ? 'error' : 'ok',
    ...(failed ? { code } : {}),
    ...(typeof permission === 'string' ? { permission } : {}),
    ...(detail.length > 0 ? { detail: detail.join('\n') } : {}),
  };
}
