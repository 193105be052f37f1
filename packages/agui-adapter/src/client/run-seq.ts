/**
 * How far the client got in its thread, as it tells the server: `state.a2uiSeq`. The server keeps
 * it current in the state itself, but in `activity` mode the state follows once per tick, after
 * the activity messages that carry each message's `seq` in the same patch: a run cut between the
 * two leaves the state behind what the client holds. Before each run, the state is brought up to
 * the highest `seq` an applied activity event carried — events arrive in order and a cut only
 * loses a suffix, so the client holds every message through it.
 */
import { isRecord } from '@a2ui-ts/core';
import type { AbstractAgent } from '@ag-ui/client';
import { A2UI_ACTIVITY_TYPE, STATE_SEQ_KEY } from '../protocol/constants.js';

const SEQ_POINTER = `/${STATE_SEQ_KEY}`;

const isSeq = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0;

/** The highest `seq` applied activity events carried, since the last reset. */
export class RunSeq {
  #applied: number | undefined;

  /** An applied `ACTIVITY_SNAPSHOT`. */
  snapshot(event: { activityType: string; content: unknown }): void {
    if (event.activityType !== A2UI_ACTIVITY_TYPE || !isRecord(event.content)) return;
    this.#note(event.content[STATE_SEQ_KEY]);
  }

  /** An applied `ACTIVITY_DELTA`. */
  delta(event: { activityType: string; patch: readonly unknown[] }): void {
    if (event.activityType !== A2UI_ACTIVITY_TYPE) return;
    for (const operation of event.patch)
      if (isRecord(operation) && operation.path === SEQ_POINTER) this.#note(operation.value);
  }

  /** The thread was reset: its seqs start over. */
  clear(): void {
    this.#applied = undefined;
  }

  /** Before a run: `agent.state.a2uiSeq` is at least what the activity events said. */
  stamp(agent: AbstractAgent): void {
    const applied = this.#applied;
    if (applied === undefined) return;
    const state: unknown = agent.state;
    if (!isRecord(state)) return;
    const current = state[STATE_SEQ_KEY];
    if (isSeq(current) && current >= applied) return;
    agent.state = { ...state, [STATE_SEQ_KEY]: applied };
  }

  #note(value: unknown): void {
    if (isSeq(value) && (this.#applied === undefined || value > this.#applied))
      this.#applied = value;
  }
}
