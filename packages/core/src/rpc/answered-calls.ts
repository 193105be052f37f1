/**
 * Exactly-once execution of v1.0 function calls on the side that runs them: a `functionCallId`
 * is executed once however often its call is retransmitted (a retry after a lost answer, a
 * replayed log), and a repeat gets the remembered answer instead of a second run. The agent
 * keeps one per connection for `callAgentFunction`, the `A2uiClient` one for
 * `callRendererFunction`. Bounded by count and by bytes of remembered answers, so a peer cannot
 * make this side hold more than `maxRememberedAnswerBytes` however large its answers are.
 */
import type { FunctionResponse } from './function-call-messages.js';

/** Bounds of {@link AnsweredCalls}. */
export interface AnsweredCallsOptions {
  /** Most answers remembered; the oldest is forgotten first. @default 1000 */
  maxRememberedAnswers?: number;
  /**
   * Most bytes of remembered answers (UTF-16 code units of their JSON text, plus 64 per answer).
   * One answer is always kept however large it is, so the latest retransmission is still answered
   * once. @default 1048576
   */
  maxRememberedAnswerBytes?: number;
}

/** Defaults of {@link AnsweredCallsOptions}, in one place. */
export const ANSWERED_CALLS_DEFAULTS = {
  maxRememberedAnswers: 1_000,
  maxRememberedAnswerBytes: 1_048_576,
} as const;

/** Fixed cost of one remembered answer besides its text. */
const ANSWER_OVERHEAD_BYTES = 64;

/** A call seen before, as {@link AnsweredCalls.get} tells it. */
export interface AnsweredCall {
  /** The first run's answer (settled, or still running). */
  readonly answer: Promise<FunctionResponse>;
  /** True once that answer is known (and was sent): a repeat should get it again. */
  readonly answered: boolean;
}

interface Remembered {
  readonly answer: Promise<FunctionResponse>;
  answered: boolean;
  /** Bytes counted against the bound, once the answer is known (0 while it runs). */
  bytes: number;
}

/**
 * Calls answered (or being answered) on one connection, by `functionCallId`.
 *
 * @example
 * ```ts
 * const answered = new AnsweredCalls();
 * if (!answered.get('c1')) answered.remember('c1', registry.handle(body)); // runs once
 * answered.get('c1'); // { answer, answered } — a retransmission gets this answer, no second run
 * ```
 */
export class AnsweredCalls {
  readonly #calls = new Map<string, Remembered>();
  readonly #maxCount: number;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(options: AnsweredCallsOptions = {}) {
    this.#maxCount = Math.max(
      1,
      options.maxRememberedAnswers ?? ANSWERED_CALLS_DEFAULTS.maxRememberedAnswers,
    );
    this.#maxBytes =
      options.maxRememberedAnswerBytes ?? ANSWERED_CALLS_DEFAULTS.maxRememberedAnswerBytes;
  }

  /** Answers remembered (running ones included) and their bytes. */
  get size(): { count: number; bytes: number } {
    return { count: this.#calls.size, bytes: this.#bytes };
  }

  /** The call `functionCallId` seen before, or `undefined`. */
  get(functionCallId: string): AnsweredCall | undefined {
    const entry = this.#calls.get(functionCallId);
    return entry && { answer: entry.answer, answered: entry.answered };
  }

  /**
   * Remembers that `functionCallId` runs, with its coming `answer`; beyond the bounds the oldest
   * answered calls are forgotten. An answer that rejects is forgotten at once, so that a
   * retransmission runs the call again (the registries' answers never reject).
   */
  remember(functionCallId: string, answer: Promise<FunctionResponse>): void {
    const entry: Remembered = { answer, answered: false, bytes: 0 };
    this.#calls.set(functionCallId, entry);
    answer.then(
      (response) => {
        if (this.#calls.get(functionCallId) !== entry) return;
        entry.answered = true;
        entry.bytes = functionCallId.length + measure(response) + ANSWER_OVERHEAD_BYTES;
        this.#bytes += entry.bytes;
        this.#trim();
      },
      () => {
        if (this.#calls.get(functionCallId) === entry) this.#calls.delete(functionCallId);
      },
    );
    this.#trim();
  }

  /** Forgets every answer (the connection ended). */
  clear(): void {
    this.#calls.clear();
    this.#bytes = 0;
  }

  /** Forgets the oldest answered calls beyond the bounds; running ones stay (the queue bounds them). */
  #trim(): void {
    for (const [id, entry] of this.#calls) {
      if (this.#calls.size <= 1) return;
      if (this.#calls.size <= this.#maxCount && this.#bytes <= this.#maxBytes) return;
      if (!entry.answered) continue;
      this.#calls.delete(id);
      this.#bytes -= entry.bytes;
    }
  }
}

/** The JSON size of an answer; one that cannot be written counts as nothing (it is never sent). */
function measure(response: FunctionResponse): number {
  try {
    return JSON.stringify(response).length;
  } catch {
    return 0;
  }
}
