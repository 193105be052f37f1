/**
 * The exact text of every control frame, in one place, so both sides (and
 * `docs/wire-formats.md`) agree byte for byte: keys in a fixed order, optional keys left out.
 */
import { boundedPrefix } from '@a2ui-ts/core';
import {
  type AckFrame,
  CLIENT_FRAME_TYPES,
  CONTROL_FRAME_PREFIX,
  type ConnectedFrame,
  type ErrorFrame,
  type ErrorFrameBody,
  type ResetFrame,
  type RestartReason,
  SERVER_FRAME_TYPES,
} from './wire.js';

/** The server's `heartbeat` frame. */
export const HEARTBEAT_FRAME = `{"type":"${SERVER_FRAME_TYPES.heartbeat}"}`;
/** The server's answer to a client `ping`. */
export const PONG_FRAME = `{"type":"${SERVER_FRAME_TYPES.pong}"}`;
/** The client's liveness probe. */
export const PING_FRAME = `{"type":"${CLIENT_FRAME_TYPES.ping}"}`;

/** True for a control frame; any other text frame of the server is an A2UI message. */
export const isControlFrame = (text: string): boolean => text.startsWith(CONTROL_FRAME_PREFIX);

/** `{"type":"connected","connectionId",…}`. */
export function formatConnectedFrame(frame: Omit<ConnectedFrame, 'type'>): string {
  const data: ConnectedFrame = {
    type: 'connected',
    connectionId: frame.connectionId,
    resumed: frame.resumed,
    replayed: frame.replayed,
    heartbeatIntervalMs: frame.heartbeatIntervalMs,
  };
  return JSON.stringify(data);
}

/** `{"type":"reset","reason"}`. */
export function formatResetFrame(reason: string): string {
  const data: ResetFrame = { type: 'reset', reason };
  return JSON.stringify(data);
}

/** `{"type":"ack","id"?,"duplicate"?}`: the acknowledgement of a client message. */
export function formatAckFrame(id: string | undefined, duplicate: boolean): string {
  const data: AckFrame = { type: 'ack' };
  if (id !== undefined) data.id = id;
  if (duplicate) data.duplicate = true;
  return JSON.stringify(data);
}

/**
 * Most characters of a frame's id an `error` frame echoes when the server names no bound: the
 * session host's default `maxRequestIdLength`, so every id it accepts is echoed whole.
 */
export const MAX_ECHOED_ID_LENGTH = 256;

/**
 * `{"type":"error","id"?,"error":{…}}`. The id is echoed up to `maxIdLength` characters: an
 * over-long id is refused, and echoing all of it (a client may send ids of `maxPayloadBytes`)
 * would send the attacker's bytes back, as many times as it asks.
 */
export function formatErrorFrame(
  id: string | undefined,
  error: ErrorFrameBody,
  maxIdLength = MAX_ECHOED_ID_LENGTH,
): string {
  const echoed = id === undefined ? undefined : boundedPrefix(id, maxIdLength);
  const data: ErrorFrame = {
    type: 'error',
    ...(echoed === undefined ? {} : { id: echoed }),
    error,
  };
  return JSON.stringify(data);
}

/** The client's `{"type":"ack","seq"}`: every A2UI message through `seq` was applied. */
export function formatSeqAckFrame(seq: number): string {
  return `{"type":"${CLIENT_FRAME_TYPES.ack}","seq":${seq}}`;
}

/** The client's envelope of one client message: `{"id","message","metadata"?}`. */
export function formatClientMessageFrame(id: string, message: unknown, metadata: unknown): string {
  return JSON.stringify(metadata === undefined ? { id, message } : { id, message, metadata });
}

/** The close reason of a server that shuts down (code 1012): `{"reason","retryAfterMs"}`. */
export function formatRestartReason(reason: string, retryAfterMs: number): string {
  const data: RestartReason = { reason, retryAfterMs };
  return JSON.stringify(data);
}
