/**
 * Paces the mounting of one surface's children (issue 25: a surface at the 10,000-instance cap
 * froze the page for 12.5 s in one commit). Every container of the surface asks it how many new
 * children it may mount; the answer comes from one budget per commit for the whole surface, so
 * nested lists and fanned-out static trees share it instead of each mounting a slice of its own.
 */
import { startTransition } from 'react';

/**
 * Children a surface may always mount in one commit, however long they take: a surface of up to
 * this many instances renders in one commit on any machine, and every commit makes progress.
 */
export const MIN_CHILDREN_PER_COMMIT = 32;

/** Default of the `mountSliceMs` renderer option, in milliseconds. */
export const DEFAULT_MOUNT_SLICE_MS = 10;

/** Assumed cost of one child (ms) until a commit of this surface was measured. */
const FIRST_CHILD_COST_MS = 0.25;

/** Fewest children a commit must have granted for its time to teach the per-child cost. */
const MIN_MEASURED_CHILDREN = 8;

/** How the scheduler paces: read from the renderer options on every use. */
export interface MountPacing {
  /** Milliseconds of rendering one commit may spend beyond {@link MIN_CHILDREN_PER_COMMIT}. */
  readonly mountSliceMs: number;
  /** Runs `mount` in a later task: the next commit's children. */
  readonly scheduleMount: (mount: () => void) => void;
}

/**
 * One surface's budget of new children per commit, and the containers still waiting for theirs.
 * A slice opens with the first grant after a commit and closes at the next commit; it grants
 * {@link MIN_CHILDREN_PER_COMMIT} children and then as many as the rest of `mountSliceMs` fits at
 * the per-child cost measured over earlier commits (which includes each commit's overhead, so
 * grants settle where a commit takes about `mountSliceMs`). The surface's first commit grants
 * {@link MIN_CHILDREN_PER_COMMIT} children only, whatever `mountSliceMs` says (unless it is
 * `Infinity`): nothing was measured yet, and the first paint comes first — a large surface shows
 * its top at once and grows from there. Waiting containers are woken together
 * in a transition from a task `scheduleMount` runs, so input queued meanwhile is handled first
 * and React renders them in tree order: the surface fills from the top.
 */
export class MountScheduler {
  pacing: MountPacing;
  #sliceStart: number | undefined;
  #granted = 0;
  #childCostMs = FIRST_CHILD_COST_MS;
  /** A commit of this surface was measured: the time budget applies from then on. */
  #measured = false;
  readonly #waiting = new Set<() => void>();
  #scheduled = false;
  #busy = false;
  readonly #listeners = new Set<() => void>();

  constructor(pacing: MountPacing) {
    this.pacing = pacing;
  }

  /** How many of `wanted` further children a container may mount in the commit being rendered. */
  grant(wanted: number): number {
    // Server rendering blocks no page: the HTML holds every child.
    if (typeof document === 'undefined') return wanted;
    const now = performance.now();
    if (this.#sliceStart === undefined) {
      this.#sliceStart = now;
      this.#granted = 0;
    }
    const floor = MIN_CHILDREN_PER_COMMIT - this.#granted;
    const left = this.pacing.mountSliceMs - (now - this.#sliceStart);
    // Before the first measured commit only `Infinity` (everything in one commit) adds to the floor.
    const byTime =
      left > 0 && (this.#measured || left === Number.POSITIVE_INFINITY)
        ? Math.floor(left / this.#childCostMs)
        : 0;
    const granted = Math.max(0, Math.min(wanted, Math.max(floor, byTime)));
    this.#granted += granted;
    return granted;
  }

  /** A container committed: the open slice ends, and its time per child is learnt. */
  committed(): void {
    const start = this.#sliceStart;
    if (start === undefined) return;
    this.#sliceStart = undefined;
    if (this.#granted >= MIN_MEASURED_CHILDREN) {
      this.#measured = true;
      const measured = (performance.now() - start) / this.#granted;
      // Averaged with the past, so one commit slowed by something else does not stall the next.
      this.#childCostMs = Math.max(0.001, (this.#childCostMs + measured) / 2);
    }
  }

  /**
   * Registers a committed container that has children left to mount; `wake` re-renders it. Call
   * from a layout effect (after the commit). Returns the unregistration.
   */
  wait(wake: () => void): () => void {
    this.#waiting.add(wake);
    this.#requestSlice();
    this.#settle();
    return () => {
      this.#waiting.delete(wake);
      this.#settle();
    };
  }

  /** True while some container of the surface has children left to mount. */
  isBusy = (): boolean => this.#busy;

  /** Calls `listener` when {@link isBusy} changes. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #requestSlice(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.pacing.scheduleMount(() => {
      this.#scheduled = false;
      if (this.#waiting.size === 0) return;
      const wakes = [...this.#waiting];
      startTransition(() => {
        for (const wake of wakes) wake();
      });
    });
  }

  /**
   * Updates {@link isBusy}. A commit may flip it off and on again (a container's effect leaves
   * and registers anew); React reads it once after the commit, so the surface sees the outcome.
   */
  #settle(): void {
    const busy = this.#waiting.size > 0;
    if (busy === this.#busy) return;
    this.#busy = busy;
    for (const listener of [...this.#listeners]) listener();
  }
}
