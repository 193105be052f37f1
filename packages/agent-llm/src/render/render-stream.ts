/**
 * One `render_a2ui` call, rendered while the model writes it: its streamed arguments go through
 * a streaming JSON parser (`@streamparser/json`), and every message — every component of an
 * `updateComponents` — is checked by the {@link SurfaceMirror} as soon as it is complete, and sent
 * once valid and once what it references is on the client (the mirror holds the rest back). The
 * final arguments then settle what the stream could not (a provider that sends them whole, a
 * broken stream) and the call's outcome goes back to the model.
 */
import {
  findDepthViolation,
  getServerMessageKind,
  getSurfaceId,
  isRecord,
  type ServerMessage,
} from '@a2ui-ts/core';
import { tryParseJson } from '@a2ui-ts/core/link';
import { JSONParser } from '@streamparser/json';
import type { ComponentPiece, RenderIssue, SurfaceMirror } from './surface-mirror.js';

/** Options of {@link RenderStream}. */
export interface RenderStreamOptions {
  mirror: SurfaceMirror;
  /** Delivers accepted messages to the client, in order (`connection.send`). */
  send(messages: ServerMessage[]): void;
  /**
   * Render complete pieces while the arguments stream in; `false` waits for the whole call.
   * @default true
   */
  progressive?: boolean;
}

/** What a render call achieved, for the model (the tool result) and the agent. */
export interface RenderOutcome {
  /** True when every message applied and every touched surface renders fully. */
  readonly ok: boolean;
  /** Messages sent to the client for this call. */
  readonly sent: number;
  /** Surfaces this call touched. */
  readonly surfaceIds: readonly string[];
  readonly issues: readonly RenderIssue[];
}

/**
 * What the model reads back: `{ok, applied, surfaces, errors?, next?}`.
 *
 * @example
 * ```ts
 * renderResult({ ok: true, sent: 3, surfaceIds: ['weather'], issues: [] });
 * // { ok: true, applied: 3, surfaces: ['weather'] }
 * ```
 */
export function renderResult(outcome: RenderOutcome): Record<string, unknown> {
  const result: Record<string, unknown> = {
    ok: outcome.ok,
    applied: outcome.sent,
    surfaces: outcome.surfaceIds,
  };
  if (!outcome.ok) {
    result.errors = outcome.issues.map(({ code, path, message }) => ({ code, path, message }));
    result.next =
      'Everything not listed in errors is on screen; a component that references a listed problem is held back (or shown without it) until that is fixed. Fix exactly the listed problems and call render_a2ui again: send only the corrected components and messages, the rest stays.';
  }
  return result;
}

/**
 * Deepest nesting of a tool call's arguments, in levels of arrays and objects, checked before
 * anything walks them (a validator, `JSON.stringify`, the provider's encoder): every walk of
 * theirs recurses, and arguments 5,000 levels deep overflow the stack. A2UI messages within
 * the data model's 64 levels stay far below it.
 */
export const MAX_ARGUMENT_DEPTH = 128;

/** The issue of arguments nested deeper than {@link MAX_ARGUMENT_DEPTH}, at `path`. */
export function tooDeepIssue(path = ''): RenderIssue {
  return {
    code: 'VALIDATION_FAILED',
    path: path.slice(0, 200),
    message: `The arguments are nested deeper than ${MAX_ARGUMENT_DEPTH} levels of arrays and objects; nothing of them was applied. Send flat A2UI messages: components reference each other by id.`,
  };
}

/** The issue of `input` (found at `at`) nested deeper than {@link MAX_ARGUMENT_DEPTH}, or `undefined`. */
export function argumentDepthIssue(input: unknown, at = ''): RenderIssue | undefined {
  const violation = findDepthViolation(input, MAX_ARGUMENT_DEPTH);
  return violation ? tooDeepIssue(`${at}${violation.path}`) : undefined;
}

type Unit =
  | { kind: 'message'; index: number; message: unknown }
  | { kind: 'component'; index: number; surfaceId: string; piece: ComponentPiece };

const MESSAGE_PATH = '$.messages.*';
const COMPONENT_PATH = '$.messages.*.updateComponents.components.*';

/**
 * The progressive renderer of one tool call.
 *
 * @example
 * ```ts
 * const stream = new RenderStream({ mirror, send: (messages) => connection.send(messages) });
 * for await (const delta of argumentDeltas) stream.write(delta); // sends as pieces complete
 * const outcome = stream.finish(JSON.parse(allArguments)); // the tool result: renderResult(outcome)
 * ```
 */
export class RenderStream {
  readonly #mirror: SurfaceMirror;
  readonly #send: (messages: ServerMessage[]) => void;
  readonly #parser: JSONParser | undefined;
  readonly #queue: Unit[] = [];
  /** Messages fully handled, by index in the call. */
  readonly #doneMessages = new Set<number>();
  /** Components already handled, by message index. */
  readonly #doneComponents = new Map<number, Set<number>>();
  /** Pointer of each component in this call, by surface and id (for completeness issues). */
  readonly #located = new Map<string, string>();
  readonly #touched = new Set<string>();
  readonly #issues: RenderIssue[] = [];
  #sent = 0;
  #streamError: string | undefined;

  constructor(options: RenderStreamOptions) {
    this.#mirror = options.mirror;
    this.#send = options.send;
    if (options.progressive === false) return;
    const parser = new JSONParser({ paths: [MESSAGE_PATH, COMPONENT_PATH] });
    parser.onValue = ({ value, key, stack }) => {
      if (stack.length === 2 && typeof key === 'number') {
        this.#queue.push({ kind: 'message', index: key, message: value });
        return;
      }
      // $.messages[i].updateComponents.components[j]: the stack holds the partial message.
      if (stack.length !== 5 || typeof key !== 'number') return;
      const index = stack[2]?.key;
      const message = stack[3]?.value;
      const body = stack[4]?.value;
      if (typeof index !== 'number' || !isRecord(message) || !isRecord(body)) return;
      // Only when the envelope is already known to be right; otherwise the whole message decides.
      if (message.version !== 'v0.9' || typeof body.surfaceId !== 'string') return;
      this.#queue.push({
        kind: 'component',
        index,
        surfaceId: body.surfaceId,
        piece: { component: value, at: `/messages/${index}/updateComponents/components/${key}` },
      });
    };
    parser.onError = (error) => {
      this.#streamError = error.message;
    };
    this.#parser = parser;
  }

  /** Messages sent so far. */
  get sent(): number {
    return this.#sent;
  }

  /**
   * Feeds a piece of the streamed arguments and sends what became complete.
   * @throws what `send` throws (`CONNECTION_CLOSED` when the client left)
   */
  write(delta: string): void {
    if (!this.#parser || this.#streamError !== undefined || this.#parser.isEnded) return;
    try {
      this.#parser.write(delta);
    } catch (error) {
      // Broken JSON: stop streaming; the final arguments (or their absence) decide.
      this.#streamError = (error as Error).message;
    }
    this.#flush();
  }

  /**
   * Settles the call as refused whatever streamed of it (its arguments could not be read, see
   * `boundToolArguments`), with `issue` for the model.
   */
  refuse(issue: RenderIssue): RenderOutcome {
    this.#issues.push(issue);
    return this.finish({ messages: [] }, false);
  }

  /**
   * Settles the call with its final arguments: handles every message the stream did not, then
   * checks that every touched surface renders fully.
   * @param input - the parsed arguments, `{messages: [...]}`
   * @param read - `false` when the arguments are not to be read (the call was refused)
   */
  finish(input: unknown, read = true): RenderOutcome {
    this.#flush();
    const tooDeep = read ? argumentDepthIssue(input) : undefined;
    const messages = tooDeep ? undefined : readMessages(input);
    if (tooDeep) this.#issues.push(tooDeep);
    else if (!read) this.#queue.length = 0;
    else if (!messages) {
      const syntax = typeof input === 'string' ? jsonSyntaxError(input) : this.#streamError;
      this.#issues.push({
        code: 'VALIDATION_FAILED',
        path: syntax === undefined ? '/messages' : '',
        message:
          syntax === undefined
            ? 'Call render_a2ui with {"messages": [...]}: a non-empty array of A2UI v0.9 messages.'
            : `The arguments were not valid JSON (${syntax}); call render_a2ui with {"messages": [...]}, complete and well-formed.`,
      });
    } else {
      messages.forEach((message, index) => {
        if (!this.#doneMessages.has(index)) this.#queue.push({ kind: 'message', index, message });
      });
      this.#flush();
    }
    const issues = dedupe([
      ...this.#issues,
      ...this.#mirror.completeness(this.#touched, (surfaceId, id) =>
        this.#located.get(`${surfaceId}\u0000${id}`),
      ),
    ]);
    return {
      ok: issues.length === 0,
      sent: this.#sent,
      surfaceIds: [...this.#touched].filter((id) => this.#mirror.has(id)),
      issues,
    };
  }

  /** Judges queued units in order and sends what passes; consecutive components go in one message. */
  #flush(): void {
    while (this.#queue.length > 0) {
      const unit = this.#queue.shift()!;
      const value = unit.kind === 'component' ? unit.piece.component : unit.message;
      const at = unit.kind === 'component' ? unit.piece.at : `/messages/${unit.index}`;
      const tooDeep = argumentDepthIssue(value, at);
      if (tooDeep) {
        if (unit.kind === 'component') this.#markComponent(unit.index, unit.piece);
        else this.#doneMessages.add(unit.index);
        this.#issues.push(tooDeep);
        continue;
      }
      if (unit.kind === 'component') {
        const pieces = [unit.piece];
        this.#markComponent(unit.index, unit.piece);
        while (
          this.#queue[0]?.kind === 'component' &&
          this.#queue[0].index === unit.index &&
          this.#queue[0].surfaceId === unit.surfaceId
        ) {
          const next = this.#queue.shift() as Extract<Unit, { kind: 'component' }>;
          this.#markComponent(next.index, next.piece);
          pieces.push(next.piece);
        }
        this.#locate(unit.surfaceId, pieces);
        this.#deliver(
          unit.surfaceId,
          this.#mirror.acceptComponents(unit.surfaceId, pieces, `/messages/${unit.index}`),
        );
        continue;
      }
      this.#doneMessages.add(unit.index);
      if (getServerMessageKind(unit.message) !== 'updateComponents') {
        this.#deliver(getSurfaceId(unit.message), this.#mirror.accept(unit.message, at));
        continue;
      }
      const envelope = this.#mirror.readComponentsEnvelope(unit.message, at);
      if ('issues' in envelope) {
        this.#deliver(getSurfaceId(unit.message), { messages: [], issues: envelope.issues });
        continue;
      }
      // Components that streamed already were judged; judge the rest at their own pointers.
      const done = this.#doneComponents.get(unit.index);
      const pieces = envelope.components
        .map((component, index) => ({
          component,
          at: `${at}/updateComponents/components/${index}`,
        }))
        .filter((_, index) => !done?.has(index));
      this.#touched.add(envelope.surfaceId);
      if (pieces.length === 0) continue;
      this.#locate(envelope.surfaceId, pieces);
      this.#deliver(
        envelope.surfaceId,
        this.#mirror.acceptComponents(envelope.surfaceId, pieces, at),
      );
    }
  }

  #markComponent(index: number, piece: ComponentPiece): void {
    let done = this.#doneComponents.get(index);
    if (!done) {
      done = new Set();
      this.#doneComponents.set(index, done);
    }
    done.add(Number(piece.at.slice(piece.at.lastIndexOf('/') + 1)));
  }

  #locate(surfaceId: string, pieces: readonly ComponentPiece[]): void {
    for (const piece of pieces) {
      const id = isRecord(piece.component) ? piece.component.id : undefined;
      if (typeof id === 'string') this.#located.set(`${surfaceId}\u0000${id}`, piece.at);
    }
  }

  #deliver(
    surfaceId: string | undefined,
    accepted: { messages: ServerMessage[]; issues: RenderIssue[] },
  ): void {
    if (surfaceId !== undefined) this.#touched.add(surfaceId);
    this.#issues.push(...accepted.issues);
    if (accepted.messages.length === 0) return;
    this.#send(accepted.messages);
    this.#sent += accepted.messages.length;
  }
}

/** The parse error of `text`, or `undefined` when it is JSON. */
function jsonSyntaxError(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** `{messages: [...]}`, tolerating a model that wrote the array as a JSON string. */
function readMessages(input: unknown): unknown[] | undefined {
  if (!isRecord(input)) return undefined;
  const messages =
    typeof input.messages === 'string' ? tryParseJson(input.messages) : input.messages;
  return Array.isArray(messages) && messages.length > 0 ? messages : undefined;
}

/** Streamed batches can report the same problem twice (a missing surface); keep each once. */
function dedupe(issues: RenderIssue[]): RenderIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.code}\u0000${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
