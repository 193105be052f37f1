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

/** An open `{` or `[` of the block. */
export interface OpenBracket {
  readonly char: '{' | '[';
  /** Its offset in the scanner's buffer. */
  start: number;
  /** The key it is the value of (`"components"` for `"components": [`), if short enough to keep. */
  readonly key: string | undefined;
  /** Offset in the buffer where its current item starts (after its opener or its last comma). */
  itemStart: number;
}

/** Keys longer than this are not kept: the parser only asks about short, known keys. */
const MAX_KEPT_KEY_LENGTH = 32;

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
  /** Offset in {@link buffer} of the opening quote of the string being read. */
  #stringStart = 0;
  /** The text of the string being read (up to {@link MAX_KEPT_KEY_LENGTH} + 1 characters). */
  #stringText = '';
  /** What was appended to the buffer since {@link takeAppended} was last called. */
  #appended = '';
  /** The end of the buffer, from offset {@link #recentStart}: `buffer.slice(#recentStart)`. */
  #recent = '';
  #recentStart = 0;
  /** The last string read, while nothing but `:` and whitespace followed it. */
  #lastString: string | undefined;
  /** The key whose value comes next (a string, then `:`), until a value starts. */
  #pendingKey: string | undefined;

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
      if (open.char === '{' && this.#stack[index - 1]?.key === 'components') return open.start;
    }
    return undefined;
  }

  /**
   * The string (key or value) still being written inside a message, read from its raw length
   * without decoding it: its offset in {@link buffer} (generation {@link generation}) and the
   * UTF-16 units of its JSON text so far (opening quote and escapes included); undefined
   * outside a string.
   */
  openString(): { start: number; length: number } | undefined {
    if (!this.#inString || this.#depth === 0) return undefined;
    return { start: this.#stringStart, length: this.buffer.length - this.#stringStart };
  }

  /**
   * The brackets open in the message being written, outermost (the message itself) first; empty
   * between messages or when the message is not an object.
   */
  openInMessage(): readonly OpenBracket[] {
    const first = this.#inTopLevelList ? 1 : 0;
    return this.#stack[first]?.char === '{' ? this.#stack.slice(first) : [];
  }

  /**
   * The text appended to {@link buffer} since the last call (what an incremental reader needs;
   * reading `buffer` itself after an append makes V8 copy all of it).
   */
  takeAppended(): string {
    const appended = this.#appended;
    this.#appended = '';
    return appended;
  }

  /**
   * The text of {@link buffer} from `offset` to its end. Reading the end of the buffer this way
   * copies only that end (kept aside, see {@link keepFrom}), not the whole buffer.
   */
  textFrom(offset: number): string {
    return offset >= this.#recentStart
      ? this.#recent.slice(offset - this.#recentStart)
      : this.buffer.slice(offset);
  }

  /** Says that {@link textFrom} will not be asked for text before `offset` until more arrives. */
  keepFrom(offset: number): void {
    if (offset <= this.#recentStart) return;
    this.#recent = this.#recent.slice(Math.min(offset, this.buffer.length) - this.#recentStart);
    this.#recentStart = Math.min(offset, this.buffer.length);
  }

  #append(text: string): void {
    this.buffer += text;
    this.#appended += text;
    this.#recent += text;
  }

  /** After the buffer was cut or cleared: nothing of it is kept aside. */
  #forgetRecent(): void {
    this.#recent = '';
    this.#recentStart = this.buffer.length;
    this.#appended = '';
  }

  /** Forgets the block (after its closing tag). */
  reset(): void {
    this.buffer = '';
    this.#forgetRecent();
    this.generation++;
    this.foundObject = false;
    this.#stack = [];
    this.#depth = 0;
    this.#inTopLevelList = false;
    this.#inString = false;
    this.#escaped = false;
    this.#lastString = undefined;
    this.#pendingKey = undefined;
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
    else if (char === '"') {
      this.#inString = false;
      this.#lastString =
        this.#stringText.length <= MAX_KEPT_KEY_LENGTH ? this.#stringText : undefined;
      if (this.#depth > 0) this.#append(char);
      return;
    }
    if (this.#stringText.length <= MAX_KEPT_KEY_LENGTH) this.#stringText += char;
    if (this.#depth > 0) this.#append(char);
  }

  #readStructuralChar(char: string, hooks: JsonBlockScannerHooks): void {
    switch (char) {
      case '"':
        this.#inString = true;
        this.#escaped = false;
        this.#stringText = '';
        this.#stringStart = this.buffer.length;
        this.#pendingKey = undefined;
        if (this.#depth > 0) this.#append(char);
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
        this.#append(']');
        this.#depth--;
        if (this.#depth === 0) this.#inTopLevelList = false;
        return;
      default:
        if (this.#depth > 0) this.#append(char);
        this.#readValueChar(char);
    }
  }

  /** Tracks keys (a string then `:`) and where the current item of the open bracket starts. */
  #readValueChar(char: string): void {
    if (char === ':') {
      this.#pendingKey = this.#lastString;
    } else if (char !== ' ' && char !== '\n' && char !== '\r' && char !== '\t') {
      this.#pendingKey = undefined;
      this.#lastString = undefined;
      const top = this.#stack.at(-1);
      if (char === ',' && top !== undefined) top.itemStart = this.buffer.length;
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
    const start = this.buffer.length;
    this.#stack.push({ char, start, key: this.#pendingKey, itemStart: start + 1 });
    this.#pendingKey = undefined;
    this.#lastString = undefined;
    this.#append(char);
    this.#depth++;
  }

  #closeObject(hooks: JsonBlockScannerHooks): void {
    const open = this.#stack.pop();
    // A `}` with nothing open is noise; a `}` closing a `[` is a model typo we read past.
    if (open === undefined) return;
    this.#append('}');
    this.#depth--;
    const text = this.textFrom(open.start);
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
      for (const entry of stack) {
        entry.start -= text.length;
        entry.itemStart -= text.length;
      }
    }
    this.#forgetRecent();
  }
}
