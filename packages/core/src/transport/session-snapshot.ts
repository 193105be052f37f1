/**
 * The session snapshot marker (docs/session-host.md "Snapshot instead of reset"), defined once for
 * the host that writes it and every client transport that reads it. When a client resumes from a
 * position its connection's replay log no longer holds (or from 0 after a page reload), the host
 * answers with one entry whose data is
 *
 * ```json
 * {"a2uiSnapshot":{"throughSeq":42,"messages":[{"version":"v0.9","createSurface":{…}}, …]}}
 * ```
 *
 * carrying the `seq` `throughSeq`: the compacted state of every surface of the session as of that
 * message (createSurface, its components and data model, in each surface's own protocol version).
 * A client replaces its surfaces with these (surfaces not in it are gone) and continues after
 * `throughSeq`, on the same connection: no reset, the agent does not start over.
 */
import { isRecord } from '../protocol/guards.js';

/** The key of the snapshot envelope, the marker itself. */
export const SESSION_SNAPSHOT_KEY = 'a2uiSnapshot';

/** A snapshot as the host sends it inside the envelope. */
export interface SessionSnapshot {
  /** The `seq` of the last message the snapshot includes; the client continues after it. */
  readonly throughSeq: number;
  /** The messages that rebuild every surface of the session, in order. */
  readonly messages: readonly unknown[];
}

/** The JSON text of a snapshot envelope (what a replay entry's `data` carries). */
export function encodeSessionSnapshot(snapshot: SessionSnapshot): string {
  return JSON.stringify({ [SESSION_SNAPSHOT_KEY]: snapshot });
}

/** The prefix every envelope's JSON text starts with, so text that is no snapshot is not parsed. */
const ENVELOPE_PREFIX = `{"${SESSION_SNAPSHOT_KEY}":`;

/**
 * Reads a snapshot envelope: its JSON text or the parsed object (a replay entry's `data`, or what a
 * binding decoded from its wire).
 *
 * @returns the snapshot, or `undefined` for anything else (an ordinary server message)
 *
 * @example
 * ```ts
 * const snapshot = readSessionSnapshot(event.data);
 * if (snapshot) sequence.reset(snapshot.throughSeq);
 * ```
 */
export function readSessionSnapshot(data: unknown): SessionSnapshot | undefined {
  let value = data;
  if (typeof data === 'string') {
    if (!data.trimStart().startsWith(ENVELOPE_PREFIX)) return undefined;
    try {
      value = JSON.parse(data);
    } catch {
      return undefined;
    }
  }
  if (!isRecord(value)) return undefined;
  const body = value[SESSION_SNAPSHOT_KEY];
  if (!isRecord(body)) return undefined;
  const { throughSeq, messages } = body;
  if (!Number.isSafeInteger(throughSeq) || (throughSeq as number) < 0) return undefined;
  if (!Array.isArray(messages)) return undefined;
  return { throughSeq: throughSeq as number, messages };
}
