/**
 * The codec from A2UI server messages to AG-UI events, one per output mode (ARCHITECTURE §4
 * "AG-UI", digest `ag-ui.md` §5.4):
 *
 * - `state` — `state.surfaces[<surfaceId>] = {catalogId, theme?, sendDataModel, components:
 *   {<componentId>: …}, dataModel}` (core's `SurfaceSnapshot`). A `STATE_SNAPSHOT` (merged with
 *   the other keys of the client's state) only when the client's state lacks the thread's
 *   surfaces; otherwise one `STATE_DELTA` per message, computed against the client's own state.
 * - `activity` — per surface one activity message `a2ui-surface-<surfaceId>` (`activityType:
 *   "a2ui-surface"`, `content.a2ui_operations`): an `ACTIVITY_SNAPSHOT` of the whole surface when
 *   the client does not hold it, then `ACTIVITY_DELTA` appends; once the appended messages outgrow
 *   the snapshot (and 16 KiB), a fresh compact snapshot replaces them.
 * - `tool-result` — at the end of the run, per surface it changed, a backend tool call
 *   `a2ui_surface` and its `TOOL_CALL_RESULT` carrying `{a2ui_operations}` (the whole surface),
 *   which `@ag-ui/a2ui-middleware` paints and which stays in the conversation history.
 *
 * Every mode keeps `state.a2uiSeq` at the `seq` of the last message the client was sent, and the
 * client sends its state back with each run: `state` mode writes it in the very `STATE_DELTA`
 * that carries the message, `activity` mode in the activity message's own delta (and in the state
 * once per tick, for clients that only send state back), so whatever part of a run a client
 * received, its `a2uiSeq` says exactly which messages it holds. A run that resumes from there
 * replays the messages after it ({@link EmitterRun.resumeFrom}).
 */
import { isRecord, type ServerMessage } from '@a2ui-ts/core';
import { type BaseEvent, EventType } from '@ag-ui/core';
import {
  A2UI_ACTIVITY_TYPE,
  A2UI_OPERATIONS_KEY,
  activityMessageId,
  STATE_SEQ_KEY,
  STATE_SURFACES_KEY,
  SURFACE_TOOL_NAME,
} from '../protocol/constants.js';
import {
  applyServerMessage,
  cloneSurfaces,
  type PatchOperation,
  type SurfacesState,
  sameSurfaces,
  surfaceMessages,
} from '../protocol/surface-state.js';
import type { ThreadState } from './thread-state.js';

/** How surfaces travel over AG-UI. */
export type AgUiOutputMode = 'state' | 'activity' | 'tool-result';

/** What an emitter knows of the run. */
export interface EmitterRun {
  readonly thread: ThreadState;
  readonly runId: string;
  /** `RunAgentInput.state`, as the client sent it. */
  readonly clientState: unknown;
  /**
   * Every surface goes whole: the client asked (`forwardedProps.a2uiResync`), the thread was
   * reset, or what the client lacks is no longer in the replay log.
   */
  readonly resync: boolean;
  /**
   * The client's `a2uiSeq` when the run resumes from it: its state is as of that `seq`, and the
   * messages after it arrive again (those through {@link replayUntil} were sent before).
   */
  readonly resumeFrom: number | undefined;
  /** The last `seq` sent before this run: messages through it are replays. */
  readonly replayUntil: number;
  /** The client's state carries no `a2uiSeq` yet: the run writes one at once. */
  readonly stampSeq: boolean;
  /**
   * Activity mode: appended bytes after which a surface's activity message is replaced by a
   * compact snapshot. @default the larger of its last snapshot's size and 16 KiB
   */
  readonly compactAfterBytes?: number;
  /**
   * Writes a surface's (v0.9) operations in the version the agent created it in: v1.0's for a
   * v1.0 surface (`activity` and `tool-result` modes). @default the operations as they are
   */
  readonly writeOperations?: (surfaceId: string, operations: readonly unknown[]) => unknown[];
  emit(event: BaseEvent): void;
  /** Emits an event given as its JSON text. */
  emitJson(json: string): void;
}

/** Turns one run's A2UI messages into events. */
export interface SurfaceEmitter {
  /** Before the run's first message. */
  begin(): void;
  /** One message, as the connection sent it: the object, its JSON text and its `seq`. */
  deliver(message: ServerMessage, data: string, seq: number): void;
  /** Before an event of another kind (a tool call): whatever is due for this tick goes first. */
  flush(): void;
  /** Before the run's terminal event. */
  end(): void;
}

/** Creates the emitter of `mode` for one run. */
export function createSurfaceEmitter(mode: AgUiOutputMode, run: EmitterRun): SurfaceEmitter {
  if (mode === 'state') return new StateEmitter(run);
  if (mode === 'activity') return new ActivityEmitter(run);
  return new ToolResultEmitter(run);
}

const SURFACES_POINTER = `/${STATE_SURFACES_KEY}`;
const SEQ_POINTER = `/${STATE_SEQ_KEY}`;

/**
 * Writes `state.a2uiSeq` for modes whose messages travel outside the state, as a `STATE_DELTA`.
 * A client whose state is not an object sends none back worth resuming from: it gets none.
 */
class SeqWriter {
  readonly #run: EmitterRun;
  readonly #enabled: boolean;
  #written: number | undefined;

  constructor(run: EmitterRun) {
    this.#run = run;
    this.#enabled = isRecord(run.clientState);
  }

  write(seq: number): void {
    if (!this.#enabled || seq === this.#written) return;
    this.#written = seq;
    this.#run.emit({
      type: EventType.STATE_DELTA,
      delta: [{ op: 'add', path: SEQ_POINTER, value: seq }],
    } as BaseEvent);
  }
}

/** Activity appends below this many bytes never trigger a compact snapshot (small surfaces). */
const MIN_COMPACT_AFTER_BYTES = 16_384;

class StateEmitter implements SurfaceEmitter {
  readonly #run: EmitterRun;
  /** The client's state as this run has shaped it so far. */
  #state: Record<string, unknown> | undefined;
  #surfaces: SurfacesState | undefined;
  /** The `seq` as of which the run began with every surface whole (replays up to it are in it). */
  #wholeAt = -1;

  constructor(run: EmitterRun) {
    this.#run = run;
  }

  begin(): void {
    const { thread, clientState, resync, resumeFrom } = this.#run;
    const state = isRecord(clientState) ? clientState : undefined;
    const clientSurfaces = state?.[STATE_SURFACES_KEY];
    const knownEmpty = Object.keys(thread.surfaces).length === 0;
    // A client that says which messages it holds is taken at its word: the replay completes it.
    // (A state that lost its surfaces but kept a seq past 0 cannot be completed by deltas.)
    const resumed =
      resumeFrom !== undefined &&
      !resync &&
      state !== undefined &&
      (clientSurfaces === undefined ? resumeFrom === 0 : isRecord(clientSurfaces));
    const current =
      resumed ||
      (!thread.dirty &&
        !resync &&
        (clientSurfaces === undefined
          ? knownEmpty
          : sameSurfaces(clientSurfaces, thread.surfaces)));
    if (current && state) {
      this.#state = state;
      this.#surfaces = clientSurfaces as SurfacesState | undefined;
      return;
    }
    if (current && knownEmpty) return;
    this.#snapshot(cloneSurfaces(thread.surfaces), this.#run.replayUntil);
    this.#wholeAt = this.#run.replayUntil;
  }

  deliver(message: ServerMessage, _data: string, seq: number): void {
    // Already in the snapshot the run began with.
    if (seq <= this.#wholeAt) return;
    const state = this.#state;
    if (!state) {
      // The client's state is not an object that a patch could extend: it gets one.
      const surfaces: SurfacesState = {};
      if (applyServerMessage(surfaces, message, SURFACES_POINTER).operations.length > 0)
        this.#snapshot(surfaces, seq);
      return;
    }
    const prefix: PatchOperation[] = [];
    if (!this.#surfaces) {
      this.#surfaces = {};
      prefix.push({ op: 'add', path: SURFACES_POINTER, value: {} });
    }
    const { operations } = applyServerMessage(this.#surfaces, message, SURFACES_POINTER);
    if (operations.length === 0) return;
    if (prefix.length > 0) state[STATE_SURFACES_KEY] = this.#surfaces;
    // The seq travels in the same event as the change: the client has both or neither.
    const stamp: PatchOperation = { op: 'add', path: SEQ_POINTER, value: seq };
    state[STATE_SEQ_KEY] = seq;
    this.#run.emit({
      type: EventType.STATE_DELTA,
      delta: [...prefix, ...operations, stamp],
    } as BaseEvent);
  }

  flush(): void {}

  end(): void {
    if (this.#surfaces) this.#run.thread.surfaces = this.#surfaces;
    // A client without a seq yet gets one, so that its next run can resume.
    const state = this.#state;
    if (this.#run.stampSeq && state && state[STATE_SEQ_KEY] === undefined) {
      state[STATE_SEQ_KEY] = this.#run.replayUntil;
      this.#run.emit({
        type: EventType.STATE_DELTA,
        delta: [{ op: 'add', path: SEQ_POINTER, value: this.#run.replayUntil }],
      } as BaseEvent);
    }
  }

  /** Sends the whole state: the client's other keys, untouched, `surfaces` and `a2uiSeq`. */
  #snapshot(surfaces: SurfacesState, seq: number): void {
    const clientState = this.#run.clientState;
    const state: Record<string, unknown> = isRecord(this.#state ?? clientState)
      ? { ...((this.#state ?? clientState) as Record<string, unknown>) }
      : {};
    state[STATE_SURFACES_KEY] = surfaces;
    state[STATE_SEQ_KEY] = seq;
    this.#state = state;
    this.#surfaces = surfaces;
    this.#run.emit({ type: EventType.STATE_SNAPSHOT, snapshot: state } as BaseEvent);
  }
}

class ActivityEmitter implements SurfaceEmitter {
  readonly #run: EmitterRun;
  readonly #seq: SeqWriter;
  /** While replaying: the surfaces whose activity message the client holds at that point. */
  #held: Set<string> | undefined;
  /** The `seq` to write to the state at the end of this tick. */
  #seqDue: number | undefined;
  /** The client has no seq yet: unless a message brings one, the run's end writes it. */
  #stampDue = false;
  /** The `seq` as of which the run began with every surface whole (replays up to it are in it). */
  #wholeAt = -1;

  constructor(run: EmitterRun) {
    this.#run = run;
    this.#seq = new SeqWriter(run);
  }

  begin(): void {
    const { thread, resync, resumeFrom, replayUntil } = this.#run;
    if (resumeFrom !== undefined && !resync) {
      this.#held = thread.heldAt(resumeFrom);
      return;
    }
    if (!thread.dirty && !resync) {
      this.#stampDue = this.#run.stampSeq;
      return;
    }
    thread.activity.clear();
    // Without a seq in their content: a client holding only part of them is not yet current.
    for (const surfaceId of Object.keys(thread.surfaces)) this.#snapshot(surfaceId, undefined);
    thread.sentWhole(replayUntil, Object.keys(thread.surfaces));
    this.#seq.write(replayUntil);
    this.#wholeAt = replayUntil;
  }

  deliver(message: ServerMessage, data: string, seq: number): void {
    // Already in the snapshots the run began with.
    if (seq <= this.#wholeAt) return;
    if (seq <= this.#run.replayUntil && this.#held) this.#replay(message, data, seq);
    else this.#deliverNew(message, data, seq);
    if (this.#seqDue === undefined) queueMicrotask(() => this.#writeSeq());
    this.#seqDue = seq;
  }

  flush(): void {
    this.#writeSeq();
  }

  end(): void {
    if (this.#stampDue && this.#seqDue === undefined) this.#seqDue = this.#run.replayUntil;
    this.#writeSeq();
  }

  #writeSeq(): void {
    if (this.#seqDue === undefined) return;
    this.#stampDue = false;
    this.#seq.write(this.#seqDue);
    this.#seqDue = undefined;
  }

  /** A message sent before, again, as it reached the client: its state is that of the replay. */
  #replay(message: ServerMessage, data: string, seq: number): void {
    const held = this.#held!;
    const surfaceId = surfaceIdOf(message);
    if (surfaceId === undefined) return;
    if (!held.has(surfaceId)) {
      // As first sent: a new surface arrives whole — which, right after its createSurface, is it.
      if (!('createSurface' in message)) return;
      held.add(surfaceId);
      this.#emitSnapshot(surfaceId, [JSON.parse(data)], seq);
      return;
    }
    if ('deleteSurface' in message) held.delete(surfaceId);
    const record = this.#run.thread.activity.get(surfaceId);
    if (record) record.appendedBytes += data.length;
    this.#append(surfaceId, data, seq);
  }

  #deliverNew(message: ServerMessage, data: string, seq: number): void {
    const { thread } = this.#run;
    this.#held = undefined;
    const bytes = data.length;
    const { surfaceId, operations } = applyServerMessage(thread.surfaces, message, '');
    if (surfaceId === undefined) return;
    const record = thread.activity.get(surfaceId);
    const exists = Object.hasOwn(thread.surfaces, surfaceId);
    if (!record) {
      // A surface the client does not hold yet arrives whole; messages for unknown ones go nowhere.
      if (exists && operations.length > 0) {
        this.#snapshot(surfaceId, seq);
        thread.noteHeld(seq, surfaceId, true);
      }
      return;
    }
    if ('deleteSurface' in message && !exists) {
      thread.activity.delete(surfaceId);
      thread.noteHeld(seq, surfaceId, false);
    } else if (
      exists &&
      record.appendedBytes + bytes >
        (this.#run.compactAfterBytes ?? Math.max(record.snapshotBytes, MIN_COMPACT_AFTER_BYTES))
    ) {
      this.#snapshot(surfaceId, seq);
      return;
    }
    // Every message for a surface the client holds is appended as sent, even one that changes
    // nothing here: the client's processor answers it as the spec says (e.g. SURFACE_EXISTS).
    record.appendedBytes += bytes;
    this.#append(surfaceId, data, seq);
  }

  /** The surface whole, as of `seq` (none: part of a whole snapshot of every surface). */
  #snapshot(surfaceId: string, seq: number | undefined): void {
    const surface = this.#run.thread.surfaces[surfaceId]!;
    const bytes = this.#emitSnapshot(surfaceId, surfaceMessages(surfaceId, surface), seq);
    this.#run.thread.activity.set(surfaceId, { snapshotBytes: bytes, appendedBytes: 0 });
  }

  /** Emits the activity snapshot of `operations`; returns its content's size. */
  #emitSnapshot(surfaceId: string, operations: unknown[], seq: number | undefined): number {
    const written = this.#run.writeOperations?.(surfaceId, operations) ?? operations;
    const content: Record<string, unknown> = { [A2UI_OPERATIONS_KEY]: written };
    if (seq !== undefined) content[STATE_SEQ_KEY] = seq;
    this.#run.emit({
      type: EventType.ACTIVITY_SNAPSHOT,
      messageId: activityMessageId(surfaceId),
      activityType: A2UI_ACTIVITY_TYPE,
      content,
      replace: true,
    } as BaseEvent);
    return JSON.stringify(content).length;
  }

  /**
   * An append of the message as sent (its JSON text goes into the event as it is), with the
   * content's `a2uiSeq` in the same patch: the client has both or neither.
   */
  #append(surfaceId: string, data: string, seq: number): void {
    const write = this.#run.writeOperations;
    // A v0.9 surface's message goes as sent, its bytes untouched.
    const values =
      write && this.#run.thread.v10Surfaces.has(surfaceId)
        ? write(surfaceId, [JSON.parse(data)]).map((message) => JSON.stringify(message))
        : [data];
    const adds = values
      .map((value) => `{"op":"add","path":"/${A2UI_OPERATIONS_KEY}/-","value":${value}},`)
      .join('');
    this.#run.emitJson(
      `{"type":"${EventType.ACTIVITY_DELTA}","messageId":${JSON.stringify(activityMessageId(surfaceId))},"activityType":"${A2UI_ACTIVITY_TYPE}","patch":[${adds}{"op":"add","path":"${SEQ_POINTER}","value":${seq}}]}`,
    );
  }
}

class ToolResultEmitter implements SurfaceEmitter {
  readonly #run: EmitterRun;
  readonly #touched = new Set<string>();
  readonly #seq: SeqWriter;
  #lastSeq: number | undefined;

  constructor(run: EmitterRun) {
    this.#run = run;
    this.#seq = new SeqWriter(run);
  }

  begin(): void {
    const { thread, resync } = this.#run;
    if (thread.dirty || resync)
      for (const surfaceId of Object.keys(thread.surfaces)) this.#touched.add(surfaceId);
  }

  flush(): void {}

  deliver(message: ServerMessage, _data: string, seq: number): void {
    this.#lastSeq = seq;
    // A replay changed the surfaces before: what the client lacks is the surface, whole.
    if (seq <= this.#run.replayUntil) {
      const surfaceId = surfaceIdOf(message);
      if (surfaceId !== undefined) this.#touched.add(surfaceId);
      return;
    }
    const { surfaceId, operations } = applyServerMessage(this.#run.thread.surfaces, message, '');
    if (surfaceId !== undefined && operations.length > 0) this.#touched.add(surfaceId);
  }

  end(): void {
    const { thread, runId } = this.#run;
    let index = 0;
    for (const surfaceId of this.#touched) {
      const surface = Object.hasOwn(thread.surfaces, surfaceId)
        ? thread.surfaces[surfaceId]
        : undefined;
      const operations = surface
        ? surfaceMessages(surfaceId, surface)
        : [{ version: 'v0.9', deleteSurface: { surfaceId } }];
      const toolCallId = `${runId}-a2ui-${++index}`;
      this.#run.emit({
        type: EventType.TOOL_CALL_START,
        toolCallId,
        toolCallName: SURFACE_TOOL_NAME,
      } as BaseEvent);
      this.#run.emit({
        type: EventType.TOOL_CALL_ARGS,
        toolCallId,
        delta: JSON.stringify({ surfaceId }),
      } as BaseEvent);
      this.#run.emit({ type: EventType.TOOL_CALL_END, toolCallId } as BaseEvent);
      this.#run.emit({
        type: EventType.TOOL_CALL_RESULT,
        messageId: `${toolCallId}-result`,
        toolCallId,
        role: 'tool',
        content: JSON.stringify({
          [A2UI_OPERATIONS_KEY]: this.#run.writeOperations?.(surfaceId, operations) ?? operations,
        }),
      } as BaseEvent);
    }
    this.#touched.clear();
    const seq = this.#lastSeq ?? (this.#run.stampSeq ? this.#run.replayUntil : undefined);
    if (seq !== undefined) this.#seq.write(seq);
  }
}

/** The surface a server message names. */
function surfaceIdOf(message: ServerMessage): string | undefined {
  const record = message as unknown as Record<string, { surfaceId?: unknown } | undefined>;
  const body =
    record.createSurface ??
    record.updateComponents ??
    record.updateDataModel ??
    record.deleteSurface;
  return typeof body?.surfaceId === 'string' ? body.surfaceId : undefined;
}
