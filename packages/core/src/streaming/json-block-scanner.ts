/**
 * Walks the JSON inside one `<a2ui-json>` block character by character, as the model writes it:
 * tracks strings and the open `{`/`[` with their offsets, reports every object the moment its
 * closing brace arrives, and drops finished top-level messages from its buffer so that the
 * buffer only ever holds the message being written. Nesting is capped (as every validator in
 * core caps it), so the work a push causes never grows with how deep a model nests.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { isRecord } from '../protocol/guards.js';
import { DEFAULT_MAX_DEPTH, depthLimitIssue } from '../validation/find-depth-violation.js';
import { parseCounted, type StreamReadMeter } from './stream-read-meter.js';
import type { JsonObject } from './stream-types.js';

/** Where a just-closed object sits in the block. */
export interface ClosedObjectPosition {
  /** The object is a whole message: alone in the block or an item of the top-level array. */
  readonly topLevel: boolean;
  /** The block is a JSON array of messages. */
  readonly inTopLevelList: boolean;
}

/** What the scanner reports while it reads. */
export interface JsonBlockScannerHooks {
  /** A new top-level value starts (`{` at depth 0). */
  onValueStart(): void;
  /** An object closed and parsed; `scanner.buffer` still holds it. */
  onObject(object: JsonObject, position: ClosedObjectPosition): void;
  /** A structural character arrived (`"`, `:`, `,`, `}`, `]`) inside the block. */
  onDelimiter(): void;
}

interface OpenBracket {
  readonly char: '{' | '[';
  start: number;
  /** A `[` that is the value of a `"components"` key: its objects are components. */
  readonly components: boolean;
}

/** A `"components":` key just before an opening bracket (whitespace allowed). */
const COMPONENTS_KEY = /"components"\s*:\s*$/;

/** Enough text to hold `"components"` and the whitespace a model puts around its colon. */
const COMPONENTS_LOOKBACK = 32;

const DELIMITERS = new Set(['"', ':', ',', '}', ']']);

/** The incremental JSON reader of one block; see the module comment. */
export class JsonBlockScanner {
  /** The unfinished JSON text of the block (finished messages removed). */
  buffer = '';
  /** Whether any JSON object parsed in this block. */
  foundObject = false;
  /**
   * Counts the times {@link buffer} was cut or cleared; between two changes of it the buffer
   * only grows at its end, so scans of it can be incremental.
   */
  generation = 0;
  /** Characters read: fed, and parsed when an object closes. */
  readonly meter: StreamReadMeter = { charsRead: 0 };
  readonly #maxDepth: number;
  #stack: OpenBracket[] = [];
  #depth = 0;
  #inTopLevelList = false;
  #inString = false;
  #escaped = false;

  /**
   * @param maxDepth - Deepest nesting of a message (the message is level 1, as in
   *   `findDepthViolation`); the block's top-level array does not count.
   */
  constructor(maxDepth: number = DEFAULT_MAX_DEPTH) {
    this.#maxDepth = maxDepth;
  }

  /** How deep the reader is inside brackets; 0 between top-level values. */
  get depth(): number {
    return this.#depth;
  }

  /**
   * Offset in {@link buffer} of the component object being written: the innermost open object
   * that is an item of a `"components"` array (components do not nest), or undefined.
   */
  openComponentStart(): number | undefined {
    for (let index = this.#stack.length - 1; index > 0; index--) {
      const open = this.#stack[index] as OpenBracket;
      if (open.char === '{' && this.#stack[index - 1]?.components) return open.start;
    }
    return undefined;
  }

  /** Offset in {@link buffer} of the message being written (its outermost open object). */
  openMessageStart(): number | undefined {
    const message = this.#stack[this.#inTopLevelList ? 1 : 0];
    return message?.char === '{' ? message.start : undefined;
  }

  /** Forgets the block (after its closing tag). */
  reset(): void {
    this.buffer = '';
    this.generation++;
    this.foundObject = false;
    this.#stack = [];
    this.#depth = 0;
    this.#inTopLevelList = false;
    this.#inString = false;
    this.#escaped = false;
  }

  /** Reads more of the block. Errors thrown by the hooks propagate. */
  feed(text: string, hooks: JsonBlockScannerHooks): void {
    this.meter.charsRead += text.length;
    for (const char of text) {
      if (this.#depth === 0) {
        // Prose between values (or before the array) is not JSON: skip it.
        if (char === '[') this.#inTopLevelList = true;
        else if (char !== '{') continue;
      }
      if (this.#inString) this.#readStringChar(char);
      else this.#readStructuralChar(char, hooks);
      if (this.#depth > 0 && DELIMITERS.has(char)) hooks.onDelimiter();
    }
  }

  #readStringChar(char: string): void {
    if (this.#escaped) this.#escaped = false;
    else if (char === '\\') this.#escaped = true;
    else if (char === '"') this.#inString = false;
    if (this.#depth > 0) this.buffer += char;
  }

  #readStructuralChar(char: string, hooks: JsonBlockScannerHooks): void {
    switch (char) {
      case '"':
        this.#inString = true;
        this.#escaped = false;
        if (this.#depth > 0) this.buffer += char;
        return;
      case '{':
        if (this.#depth === 0) hooks.onValueStart();
        this.#open('{');
        return;
      case '[':
        this.#open('[');
        return;
      case '}':
        this.#closeObject(hooks);
        return;
      case ']':
        if (this.#stack.at(-1)?.char !== '[') return;
        this.#stack.pop();
        this.buffer += ']';
        this.#depth--;
        if (this.#depth === 0) this.#inTopLevelList = false;
        return;
      default:
        if (this.#depth > 0) this.buffer += char;
    }
  }

  #open(char: '{' | '['): void {
    const messageDepth = this.#depth + 1 - (this.#inTopLevelList ? 1 : 0);
    if (messageDepth > this.#maxDepth) {
      const issue = depthLimitIssue('', this.#maxDepth);
      throw new A2uiError('VALIDATION_FAILED', `Validation failed: ${issue.message}`, {
        path: '',
        data: { reason: 'depth', issues: [issue] },
      });
    }
    // Only the text just before the bracket is looked at, so opening stays O(1).
    const components = char === '[' && COMPONENTS_KEY.test(this.buffer.slice(-COMPONENTS_LOOKBACK));
    this.#stack.push({ char, start: this.buffer.length, components });
    this.buffer += char;
    this.#depth++;
  }

  #closeObject(hooks: JsonBlockScannerHooks): void {
    const open = this.#stack.pop();
    // A `}` with nothing open is noise; a `}` closing a `[` is a model typo we read past.
    if (open === undefined) return;
    this.buffer += '}';
    this.#depth--;
    const text = this.buffer.slice(open.start);
    if (!text.startsWith('{')) return;
    const value = parseCounted(text, this.meter);
    if (!isRecord(value)) return;
    this.foundObject = true;
    const stack = this.#stack;
    const inList = this.#inTopLevelList;
    const topLevel = stack.length === 0 || (inList && stack.length === 1 && stack[0]?.char === '[');
    hooks.onObject(value, { topLevel, inTopLevelList: inList });
    if (this.#depth !== 0 && !(inList && stack.length === 1)) return;
    // A finished message: drop its text so the buffer stays one message long.
    this.generation++;
    if (stack.length === 1 && stack[0]?.char === '[') {
      this.buffer = this.buffer.slice(0, open.start) + this.buffer.slice(open.start + text.length);
    } else {
      this.buffer = this.buffer.slice(text.length);
      for (const entry of stack) entry.start -= text.length;
    }
  }
}
