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
 */
import { isRecord, type ServerMessage } from '@a2ui-ts/core';
import { type BaseEvent, EventType } from '@ag-ui/core';
import {
  A2UI_ACTIVITY_TYPE,
  A2UI_OPERATIONS_KEY,
  activityMessageId,
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
  /** The client asked for every surface whole (`forwardedProps.a2uiResync`). */
  readonly resync: boolean;
  /**
   * Activity mode: appended bytes after which a surface's activity message is replaced by a
   * compact snapshot. @default the larger of its last snapshot's size and 16 KiB
   */
  readonly compactAfterBytes?: number;
  emit(event: BaseEvent): void;
  /** Emits an event given as its JSON text. */
  emitJson(json: string): void;
}

/** Turns one run's A2UI messages into events. */
export interface SurfaceEmitter {
  /** Before the run's first message. */
  begin(): void;
  /** One message, as the connection sent it: the object, and its JSON text. */
  deliver(message: ServerMessage, data: string): void;
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

/** Activity appends below this many bytes never trigger a compact snapshot (small surfaces). */
const MIN_COMPACT_AFTER_BYTES = 16_384;

class StateEmitter implements SurfaceEmitter {
  readonly #run: EmitterRun;
  /** The client's state as this run has shaped it so far. */
  #state: Record<string, unknown> | undefined;
  #surfaces: SurfacesState | undefined;

  constructor(run: EmitterRun) {
    this.#run = run;
  }

  begin(): void {
    const { thread, clientState, resync } = this.#run;
    const state = isRecord(clientState) ? clientState : undefined;
    const clientSurfaces = state?.[STATE_SURFACES_KEY];
    const knownEmpty = Object.keys(thread.surfaces).length === 0;
    const current =
      !thread.dirty &&
      !resync &&
      (clientSurfaces === undefined ? knownEmpty : sameSurfaces(clientSurfaces, thread.surfaces));
    if (current && state) {
      this.#state = state;
      this.#surfaces = clientSurfaces as SurfacesState | undefined;
      return;
    }
    if (current && knownEmpty) return;
    this.#snapshot(cloneSurfaces(thread.surfaces));
  }

  deliver(message: ServerMessage): void {
    const state = this.#state;
    if (!state) {
      // The client's state is not an object that a patch could extend: it gets one.
      const surfaces: SurfacesState = {};
      if (applyServerMessage(surfaces, message, SURFACES_POINTER).operations.length > 0)
        this.#snapshot(surfaces);
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
    this.#run.emit({
      type: EventType.STATE_DELTA,
      delta: prefix.length > 0 ? [...prefix, ...operations] : operations,
    } as BaseEvent);
  }

  end(): void {
    if (this.#surfaces) this.#run.thread.surfaces = this.#surfaces;
  }

  /** Sends the whole state: the client's other keys, untouched, and `surfaces`. */
  #snapshot(surfaces: SurfacesState): void {
    const clientState = this.#run.clientState;
    const state: Record<string, unknown> = isRecord(this.#state ?? clientState)
      ? { ...((this.#state ?? clientState) as Record<string, unknown>) }
      : {};
    state[STATE_SURFACES_KEY] = surfaces;
    this.#state = state;
    this.#surfaces = surfaces;
    this.#run.emit({ type: EventType.STATE_SNAPSHOT, snapshot: state } as BaseEvent);
  }
}

class ActivityEmitter implements SurfaceEmitter {
  readonly #run: EmitterRun;

  constructor(run: EmitterRun) {
    this.#run = run;
  }

  begin(): void {
    const { thread, resync } = this.#run;
    if (!thread.dirty && !resync) return;
    thread.activity.clear();
    for (const surfaceId of Object.keys(thread.surfaces)) this.#snapshot(surfaceId);
  }

  deliver(message: ServerMessage, data: string): void {
    const { thread } = this.#run;
    const bytes = data.length;
    const { surfaceId, operations } = applyServerMessage(thread.surfaces, message, '');
    if (surfaceId === undefined) return;
    const record = thread.activity.get(surfaceId);
    const exists = Object.hasOwn(thread.surfaces, surfaceId);
    if (!record) {
      // A surface the client does not hold yet arrives whole; messages for unknown ones go nowhere.
      if (exists && operations.length > 0) this.#snapshot(surfaceId);
      return;
    }
    if ('deleteSurface' in message && !exists) thread.activity.delete(surfaceId);
    else if (
      exists &&
      record.appendedBytes + bytes >
        (this.#run.compactAfterBytes ?? Math.max(record.snapshotBytes, MIN_COMPACT_AFTER_BYTES))
    ) {
      this.#snapshot(surfaceId);
      return;
    }
    // Every message for a surface the client holds is appended as sent, even one that changes
    // nothing here: the client's processor answers it as the spec says (e.g. SURFACE_EXISTS).
    record.appendedBytes += bytes;
    this.#append(surfaceId, data);
  }

  end(): void {}

  #snapshot(surfaceId: string): void {
    const surface = this.#run.thread.surfaces[surfaceId]!;
    const content = { [A2UI_OPERATIONS_KEY]: surfaceMessages(surfaceId, surface) };
    this.#run.thread.activity.set(surfaceId, {
      snapshotBytes: JSON.stringify(content).length,
      appendedBytes: 0,
    });
    this.#run.emit({
      type: EventType.ACTIVITY_SNAPSHOT,
      messageId: activityMessageId(surfaceId),
      activityType: A2UI_ACTIVITY_TYPE,
      content,
      replace: true,
    } as BaseEvent);
  }

  /** An append of the message as sent: its JSON text goes into the event as it is. */
  #append(surfaceId: string, data: string): void {
    this.#run.emitJson(
      `{"type":"${EventType.ACTIVITY_DELTA}","messageId":${JSON.stringify(activityMessageId(surfaceId))},"activityType":"${A2UI_ACTIVITY_TYPE}","patch":[{"op":"add","path":"/${A2UI_OPERATIONS_KEY}/-","value":${data}}]}`,
    );
  }
}

class ToolResultEmitter implements SurfaceEmitter {
  readonly #run: EmitterRun;
  readonly #touched = new Set<string>();

  constructor(run: EmitterRun) {
    this.#run = run;
  }

  begin(): void {
    const { thread, resync } = this.#run;
    if (thread.dirty || resync)
      for (const surfaceId of Object.keys(thread.surfaces)) this.#touched.add(surfaceId);
  }

  deliver(message: ServerMessage): void {
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
        content: JSON.stringify({ [A2UI_OPERATIONS_KEY]: operations }),
      } as BaseEvent);
    }
    this.#touched.clear();
  }
}
