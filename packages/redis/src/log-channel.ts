/**
 * What travels on a log's pub/sub channel: the entries just appended (with their text, so that a
 * follower needs no read per append), or the end of the session.
 */
import type { DisconnectReason } from '@a2ui-ts/core';
import type { ReplayEntry } from '@a2ui-ts/core/host';
import { tryParseJson } from '@a2ui-ts/core/link';

/** A message of a log channel. */
export type LogChannelMessage =
  | { readonly type: 'append'; readonly entries: ReplayEntry[] }
  | { readonly type: 'end'; readonly reason: DisconnectReason };

/** `{"e":[[seq,"data"],…]}` */
export function encodeAppend(entries: readonly ReplayEntry[]): string {
  let text = '{"e":[';
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    text += `${index === 0 ? '' : ','}[${entry.seq},${JSON.stringify(entry.data)}]`;
  }
  return `${text}]}`;
}

/** `{"end":"reason"}` */
export function encodeEnd(reason: DisconnectReason): string {
  return JSON.stringify({ end: reason });
}

/** The message, or `undefined` for anything this version did not write. */
export function decodeLogMessage(text: string): LogChannelMessage | undefined {
  const record = tryParseJson<{ e?: unknown; end?: unknown }>(text);
  if (typeof record !== 'object' || record === null) return undefined;
  if (typeof record.end === 'string')
    return { type: 'end', reason: record.end as DisconnectReason };
  if (!Array.isArray(record.e)) return undefined;
  const entries: ReplayEntry[] = [];
  for (const item of record.e) {
    if (!Array.isArray(item) || typeof item[0] !== 'number' || typeof item[1] !== 'string')
      return undefined;
    entries.push({ seq: item[0], data: item[1] });
  }
  return entries.length > 0 ? { type: 'append', entries } : undefined;
}
