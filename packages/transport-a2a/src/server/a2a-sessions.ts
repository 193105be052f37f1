/**
 * What the A2A binding remembers about each A2UI session beside the session host: the tasks of
 * its context still waiting for input (ended when the session ends), the turn each task is running
 * (so a `SubscribeToTask` ends when it does), and how far the answers went (for clients that do
 * not say, in `Last-Event-ID`, what they applied). Forgotten when the session ends.
 */

import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { DisconnectReason } from '@a2ui-ts/core';
import type { TaskOutcome } from './task-events.js';

/** The turn (or turns) one request runs on a task. */
export interface TaskRun {
  readonly taskId: string;
  /** Set when the run is over. */
  outcome: TaskOutcome | undefined;
  /** Settles with the outcome when the run is over. */
  readonly done: Promise<TaskOutcome>;
}

/** One session's state. */
export class A2aSession {
  readonly id: string;
  /** The host's session this state belongs to (a later session may reuse the id). */
  connection: object | undefined;
  /** The call context of the latest request: task store writes are scoped by its user. */
  context: ServerCallContext;
  /** Tasks of the context in `input-required`: they end with the session. */
  readonly openTasks = new Set<string>();
  /** Every task a turn of this session ran on: a store that can forget forgets them with it. */
  readonly tasks = new Set<string>();
  readonly runs = new Map<string, TaskRun>();
  /** `seq` of the last message an answer carried. */
  deliveredSeq = 0;
  ended: DisconnectReason | undefined;
  readonly #listeners = new Set<() => void>();
  #holds = 0;
  #release: (() => void) | undefined;
  #released: Promise<void> | undefined;
  readonly #settlers = new Map<TaskRun, (outcome: TaskOutcome) => void>();

  constructor(id: string, context: ServerCallContext, connection: object | undefined) {
    this.id = id;
    this.context = context;
    this.connection = connection;
  }

  /**
   * Holds the agent's `onConnect` of a session being opened until the request follows its log:
   * `open` starts the hook before it returns, and a hook that sends and closes at once would
   * otherwise leave nothing to read. Returns the release (call it once, whatever happens).
   */
  hold(): () => void {
    if (this.#holds++ === 0) {
      this.#released = new Promise<void>((resolve) => {
        this.#release = resolve;
      });
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.#holds === 0) this.#release?.();
    };
  }

  /** Settles when no request holds the session's `onConnect`. */
  released(): Promise<void> | undefined {
    return this.#holds > 0 ? this.#released : undefined;
  }

  /** Calls `listener` on every change of runs or of the session's end; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  changed(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  startRun(taskId: string): TaskRun {
    let settle!: (outcome: TaskOutcome) => void;
    const done = new Promise<TaskOutcome>((resolve) => {
      settle = resolve;
    });
    const run: TaskRun = { taskId, outcome: undefined, done };
    this.tasks.add(taskId);
    this.#settlers.set(run, settle);
    this.runs.set(taskId, run);
    this.changed();
    return run;
  }

  endRun(run: TaskRun, outcome: TaskOutcome, interrupted: boolean): void {
    run.outcome = outcome;
    this.#settlers.get(run)?.(outcome);
    this.#settlers.delete(run);
    if (this.runs.get(run.taskId) === run) this.runs.delete(run.taskId);
    if (interrupted) this.openTasks.add(run.taskId);
    else this.openTasks.delete(run.taskId);
    this.changed();
  }
}

/** The sessions of one server. */
export class A2aSessions {
  readonly #sessions = new Map<string, A2aSession>();

  get size(): number {
    return this.#sessions.size;
  }

  get(id: string): A2aSession | undefined {
    return this.#sessions.get(id);
  }

  /**
   * The state of session `id` of `connection` (the host's session object), created on first use;
   * `context` becomes its latest.
   */
  ensure(id: string, context: ServerCallContext, connection: object | undefined): A2aSession {
    let session = this.#sessions.get(id);
    if (
      !session ||
      (connection !== undefined &&
        session.connection !== undefined &&
        session.connection !== connection)
    ) {
      session = new A2aSession(id, context, connection);
      this.#sessions.set(id, session);
    } else {
      session.context = context;
      session.connection ??= connection;
    }
    return session;
  }

  /** The stored state of `id`, or a state that is not stored (for a session that does not exist). */
  peek(id: string, context: ServerCallContext): A2aSession {
    return this.#sessions.get(id) ?? new A2aSession(id, context, undefined);
  }

  /** Forgets `session` if it was stored for a session that was never opened. */
  discard(session: A2aSession): void {
    if (session.connection === undefined && this.#sessions.get(session.id) === session)
      this.#sessions.delete(session.id);
  }

  /**
   * Task `taskId` no longer ends with session `id`: a request on it is about to end the session
   * (a reset) and finishes the task itself, so the store must not forget it first.
   */
  release(id: string, taskId: string): void {
    const session = this.#sessions.get(id);
    session?.tasks.delete(taskId);
    session?.openTasks.delete(taskId);
  }

  /** Session `id` of `connection` ended: forgets it and returns what it held. */
  end(id: string, reason: DisconnectReason, connection: object): A2aSession | undefined {
    const session = this.#sessions.get(id);
    if (!session || (session.connection !== undefined && session.connection !== connection))
      return undefined;
    this.#sessions.delete(id);
    session.ended = reason;
    session.changed();
    return session;
  }
}
