export type { SessionSnapshot } from '../transport/session-snapshot.js';
export {
  encodeSessionSnapshot,
  readSessionSnapshot,
  SESSION_SNAPSHOT_KEY,
} from '../transport/session-snapshot.js';
export type { Backoff, BackoffDelayOptions, BackoffOptions, ReconnectOptions } from './backoff.js';
export {
  computeBackoffDelay,
  createBackoff,
  parseRetryAfter,
  RECONNECT_DEFAULTS,
} from './backoff.js';
export { errorOfHttpStatus, isRetryableStatus } from './http-status.js';
export type {
  HeadersOption,
  HttpLinkOptions,
  LinkOptions,
  ResolvedLinkOptions,
} from './link-options.js';
export {
  createRequestIdSequence,
  LINK_DEFAULTS,
  resolveLinkOptions,
} from './link-options.js';
export { LinkStatus } from './link-status.js';
export type { LinkTransport, LinkTransportOptions } from './link-transport.js';
export { createLinkTransport, withDeadline } from './link-transport.js';
export type { OutboxDelivery, OutboxEntry, OutboxOptions, OutboxTrouble } from './outbox.js';
export { OUTBOX_DEFAULTS, Outbox, outcomeUnknown } from './outbox.js';
export type { LinkAttempt, LinkOutcome, LoopEnd, ReconnectLoopOptions } from './reconnect-loop.js';
export { listenForBrowserWake, runReconnectLoop, sleep } from './reconnect-loop.js';
export { resolveHeaders } from './resolve-headers.js';
export type { ResumeStore, ResumeToken, WebStorageLike } from './resume-store.js';
export { createWebStorageResumeStore, resolveResumeStore } from './resume-store.js';
export type { SequenceVerdict } from './sequence-tracker.js';
export { SequenceTracker } from './sequence-tracker.js';
export { describeTroubleCause, STORE_UNAVAILABLE, troubleCauseOf } from './trouble-cause.js';
export { tryParseJson } from './try-parse-json.js';
