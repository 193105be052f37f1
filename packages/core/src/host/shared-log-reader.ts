/**
 * Reading a connection that another node runs, from its shared replay log: a streaming link that
 * replays what the client missed and then follows new entries, and a second reader (long poll)
 * that waits for the next one. The owner keeps running the agent; this node only reads.
 */
import type { DisconnectReason } from '../agent/agent.js';
import type { ReadOptions, ReadResult, SessionSink } from './connection-session.js';
import type { ReplayEntry, ReplayLog } from './replay-log.js';

/** A link following a shared log, as {@link followLog} returns it. */
export interface FollowedLink {
  /** Messages replayed before live ones. */
  readonly replayed: number;
  /** Stops following (the link dropped); calls `onStop` once. */
  stop(): void;
  /**
   * Resolves once the sink has every entry through `seq`, or the link stopped, or `timeoutMs`
   * passed (a shared log delivers to followers later than the owner answers).
   */
  delivered(seq: number, timeoutMs: number): Promise<void>;
}

/**
 * Replays the entries of `log` after `lastSeq` to `sink`, then delivers every new one, each once,
 * in order; the log ending closes the sink with its reason.
 *
 * @param onStop - called once when the link stops, whichever side stopped it
 * @returns the link, or `undefined` when the entries after `lastSeq` are no longer kept (or were
 *   never sent): the client must be reset
 */
export async function followLog(
  log: ReplayLog,
  options: {
    connectionId: string;
    lastSeq: number;
    sink: SessionSink;
    /** `reason` when the log ended (the session's end reason). */
    onStop: (reason?: DisconnectReason) => void;
    /** Runs once the replay is known to be possible, before anything reaches the sink. */
    beforeOpen?: () => Promise<void>;
    /**
     * The session's surfaces as one snapshot entry (`ConnectionSession.snapshotEntry`), asked for
     * when the entries after `lastSeq` are no longer kept: the link starts with it instead.
     */
    snapshot?: () => Promise<ReplayEntry | undefined>;
  },
): Promise<FollowedLink | undefined> {
  const { sink, lastSeq } = options;
  const held: ReplayEntry[] = [];
  let delivered = lastSeq;
  let live = false;
  let stopped = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const deliver = (entry: ReplayEntry) => {
    if (entry.seq <= delivered) return;
    delivered = entry.seq;
    sink.deliver(entry);
    if (waiters.size > 0) wake();
  };
  let unsubscribe = (): void => {};
  const stop = (reason?: DisconnectReason): void => {
    if (stopped) return;
    stopped = true;
    unsubscribe();
    options.onStop(reason);
    wake();
  };
  // Subscribed before reading, so nothing appended in between is missed (repeats are skipped).
  unsubscribe = log.subscribe({
    onAppend: (entries) => {
      if (!live) held.push(...entries);
      else for (const entry of entries) deliver(entry);
    },
    onEnd: (reason: DisconnectReason) => {
      const wasLive = live;
      stop(reason);
      if (wasLive) sink.close(reason);
    },
  });
  const [kept, logLast] = await Promise.all([log.read(lastSeq), log.lastSeq()]);
  const snapshot =
    kept === undefined && !stopped && lastSeq <= logLast ? await options.snapshot?.() : undefined;
  const missed = kept ?? (snapshot ? [snapshot] : undefined);
  if (stopped || missed === undefined || lastSeq > logLast) {
    stopped = true;
    unsubscribe();
    return undefined;
  }
  await options.beforeOpen?.();
  sink.open?.({
    connectionId: options.connectionId,
    resumed: true,
    replayed: missed.length,
    ...(snapshot ? { snapshot: true } : {}),
  });
  for (const entry of missed) deliver(entry);
  live = true;
  for (const entry of held) deliver(entry);
  held.length = 0;
  return {
    replayed: missed.length,
    stop,
    delivered: (seq, timeoutMs) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (delivered < seq && !stopped) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          resolve();
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
  };
}

/**
 * Reads the entries of `log` after `afterSeq`; with `waitMs`, waits for one when none is there.
 * `ok: false` means some are no longer kept and `snapshot` has none (or `afterSeq` is ahead).
 */
export async function readLog(
  log: ReplayLog,
  afterSeq: number,
  options: ReadOptions & { snapshot?: () => Promise<ReplayEntry | undefined> } = {},
): Promise<ReadResult> {
  const readNow = async (): Promise<ReadResult> => {
    const [entries, lastSeq] = await Promise.all([
      log.read(afterSeq, { limit: options.limit }),
      log.lastSeq(),
    ]);
    if (afterSeq > lastSeq) return { ok: false, lastSeq };
    if (entries === undefined) {
      // Missed entries no longer kept: the surfaces as of now, as the owner has them.
      const snapshot = await options.snapshot?.();
      return snapshot
        ? { ok: true, entries: [snapshot], lastSeq: Math.max(lastSeq, snapshot.seq) }
        : { ok: false, lastSeq };
    }
    return { ok: true, entries, lastSeq };
  };
  const first = await readNow();
  const waitMs = options.waitMs ?? 0;
  if (!first.ok || first.entries.length > 0 || waitMs <= 0 || options.signal?.aborted) return first;
  await new Promise<void>((resolve) => {
    let done = false;
    let unsubscribe = (): void => {};
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe();
      options.signal?.removeEventListener('abort', finish);
      resolve();
    };
    const timer = setTimeout(finish, waitMs);
    options.signal?.addEventListener('abort', finish, { once: true });
    unsubscribe = log.subscribe({ onAppend: finish, onEnd: finish });
    if (done) unsubscribe();
  });
  return readNow();
}
