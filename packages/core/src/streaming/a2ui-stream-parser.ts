/**
 * The streaming parser for LLM output that mixes conversational text with A2UI messages in
 * `<a2ui-json>…</a2ui-json>` blocks (the A2UI agent SDKs' "direct JSON" inference format).
 * Text is passed through as it arrives; messages are sent as soon as they are safe to render.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { isRecord } from '../protocol/guards.js';
import { DEFAULT_MAX_DEPTH } from '../validation/find-depth-violation.js';
import { resolveLimitOption } from '../validation/limit-option.js';
import { DEFAULT_MAX_MESSAGE_BYTES, utf8ByteLength } from '../validation/parse-messages.js';
import type { ValidationIssue } from '../validation/validation-issue.js';
import { A2UI_CLOSE_TAG, A2UI_OPEN_TAG, heldTagPrefixLength } from './a2ui-tags.js';
import { completeMessage, type MessageHandlerHost } from './complete-message.js';
import { referenceFieldsOf } from './component-references.js';
import { isShowable, requiredFieldsOf } from './component-requirements.js';
import { type ComponentSend, ComponentStreamer } from './component-streamer.js';
import {
  JsonBlockScanner,
  type JsonBlockScannerHooks,
  type OpenBracket,
} from './json-block-scanner.js';
import { OpenValueReader } from './open-value-reader.js';
import {
  DEFAULT_PARTIAL_STRING_EAGER_CHARS,
  DEFAULT_PARTIAL_STRING_MIN_GROWTH,
  GrowthGate,
} from './partial-string-gate.js';
import { DEFAULT_CUTTABLE_KEYS, parsePartialJson } from './repair-partial-json.js';
import { partialComponents } from './sniff-partial-components.js';
import { sniffDataModelMessage, sniffPartialDataModel } from './sniff-partial-data-model.js';
import { DataModelLedger, isPresent } from './stream-data-model.js';
import { type A2uiStreamVersion, STREAM_DIALECTS, type StreamDialect } from './stream-dialect.js';
import { GrowingTextIndex, keepLatestComponentMessages } from './stream-text-scan.js';
import type { A2uiStreamPart, JsonObject } from './stream-types.js';
import { type A2uiStreamValidator, defaultStreamValidator } from './stream-validator.js';
import { SurfaceCursor } from './surface-cursor.js';

/**
 * Default {@link A2uiStreamParserOptions.maxBlockBytes}: 4 MiB, four messages of core's
 * `maxMessageBytes` (1 MiB, {@link DEFAULT_MAX_MESSAGE_BYTES}) in one block.
 */
export const DEFAULT_MAX_BLOCK_BYTES = 4 * DEFAULT_MAX_MESSAGE_BYTES;

/** Options of {@link createA2uiStreamParser}. */
export interface A2uiStreamParserOptions {
  /**
   * The A2UI version the model writes (its messages' shapes and defaults). Messages the parser
   * builds (partial component and data-model updates) carry this version, spelled `"v1.0"` for
   * the v1.0 candidate.
   * @default 'v0.9'
   */
  version?: A2uiStreamVersion;
  /**
   * The catalog's `components` map (component type → JSON Schema). The parser reads which
   * properties reference other components (to find what is reachable from the root) and which
   * are required (a component is not shown before they arrive).
   * @default {} (only the well-known `child`, `children`, `contentChild`, `entryPointChild`)
   */
  catalogComponents?: Readonly<Record<string, unknown>>;
  /**
   * Keys whose string values may be shown while still being written, added to
   * {@link DEFAULT_CUTTABLE_KEYS} (free text only: never ids, paths or URLs).
   * @default []
   */
  cuttableKeys?: readonly string[];
  /**
   * Checks each message before it is sent. A finished message that fails throws
   * `VALIDATION_FAILED`; a partial one that fails is held back until more arrives.
   * `false` sends whatever parses.
   * @default v0.9: core's `validateServerMessage` (built-in catalogs); v0.8 and v1.0: no schema
   *   check (pass a validator for them)
   */
  validateMessage?: A2uiStreamValidator | false;
  /**
   * Deepest nesting of arrays and objects in a message (the message is level 1; a block's
   * top-level array does not count). Deeper input throws `VALIDATION_FAILED` with
   * `data.reason: 'depth'` as soon as the bracket that crosses the limit arrives.
   * A positive integer or `Infinity`; anything else throws `VALIDATION_FAILED`
   * (`data: { reason: 'option', option: 'maxDepth' }`) when the parser is created.
   * @default 64 ({@link DEFAULT_MAX_DEPTH}, the limit of every validator in core)
   */
  maxDepth?: number;
  /**
   * Largest `<a2ui-json>` block, in UTF-8 bytes of the JSON between its tags. The parser keeps
   * the message being written in memory, so a block that never ends must not grow without
   * bound. When a block crosses the limit, `push` throws `MESSAGE_TOO_LARGE` (with
   * `data: { reason: 'size', maxBlockBytes }`) once, and the parser is NOT spent: the rest of
   * the block is skipped unread up to its `</a2ui-json>`, messages sent from it before stay
   * sent, and text and blocks after it are read as usual.
   * A positive integer or `Infinity`; anything else throws `VALIDATION_FAILED`
   * (`data: { reason: 'option', option: 'maxBlockBytes' }`) when the parser is created.
   * @default 4 MiB ({@link DEFAULT_MAX_BLOCK_BYTES})
   */
  maxBlockBytes?: number;
  /**
   * While a string (a cut text, a data-model value) is still being written, every push shows
   * it again as far as it arrived as long as it holds at most this many characters of JSON
   * text (UTF-16 units, escapes and opening quote included). A longer open string is shown
   * again only once it has grown by {@link partialStringMinGrowth}; once it is finished it is
   * shown at once. The component being written is measured the same way over its whole JSON
   * text: once longer than this, it is read again when it grew by that fraction, when a string
   * in it finished, or when it closes. Re-reading and re-sending a long string or component on
   * every push would cost work and output quadratic in its length.
   * @default 1024 ({@link DEFAULT_PARTIAL_STRING_EAGER_CHARS})
   */
  partialStringEagerChars?: number;
  /**
   * How much an open string (or component) longer than {@link partialStringEagerChars} must
   * have grown since the parser last read it before a push reads and shows it again, as a
   * fraction of its length then (0.25: a quarter longer). Larger means fewer, larger updates.
   * @default 0.25 ({@link DEFAULT_PARTIAL_STRING_MIN_GROWTH})
   */
  partialStringMinGrowth?: number;
}

/**
 * An incremental parser of model output; see {@link createA2uiStreamParser}.
 */
export interface A2uiStreamParser {
  /**
   * Reads the next chunk of model output.
   *
   * @returns The parts that became ready, in order (possibly none).
   * @throws A2uiError `INVALID_JSON` when a closed `<a2ui-json>` block held no JSON object;
   *   `VALIDATION_FAILED` when a finished message fails validation, a component references
   *   itself, a cycle is reachable from the root, or a message nests deeper than `maxDepth`
   *   (`data.reason`: `'schema'`, `'self-reference'`, `'cycle'`, `'missing-root'`, `'depth'`);
   *   messages completed before the error were returned by earlier calls. After these errors
   *   the parser is spent: every later call throws the same error.
   * @throws A2uiError `MESSAGE_TOO_LARGE` (`data.reason: 'size'`) when a block grows past
   *   `maxBlockBytes`. Not fatal: the block's rest is skipped, the whole chunk is still read,
   *   and the parts it made ready are returned by the next call.
   */
  push(chunk: string): A2uiStreamPart[];
  /**
   * Ends the stream: text held back because it might have begun a tag is released.
   *
   * @throws A2uiError `INVALID_JSON` when an unclosed block held no JSON object.
   */
  end(): A2uiStreamPart[];
}

const isHighSurrogate = (code: number): boolean => (code & 0xfc00) === 0xd800;
const isLowSurrogate = (code: number): boolean => (code & 0xfc00) === 0xdc00;

const COMPONENT_MESSAGE_TYPES = new Set(['surfaceUpdate', 'updateComponents', 'createSurface']);

class StreamParser implements A2uiStreamParser, MessageHandlerHost, JsonBlockScannerHooks {
  readonly dialect: StreamDialect;
  readonly cursor: SurfaceCursor;
  readonly components: ComponentStreamer;
  readonly ledger = new DataModelLedger();
  readonly #openValue = new OpenValueReader();
  /** Re-reads of the string being written, and of the component being written. */
  readonly #stringGate: GrowthGate;
  readonly #componentGate: GrowthGate;
  /** Whether a string was open when the component being written was last read. */
  #stringOpenAtComponentRead = false;
  readonly scanner: JsonBlockScanner;
  readonly cuttableKeys: ReadonlySet<string>;
  readonly #required: ReadonlyMap<string, ReadonlySet<string>>;
  readonly #validate: A2uiStreamValidator | undefined;
  /** Surfaces whose start message was sent. */
  readonly startedSurfaces = new Set<string>();
  readonly deletedSurfaces = new Set<string>();
  /** Messages for a surface whose start message has not arrived yet. */
  readonly pending = new Map<string, JsonObject[]>();
  /** A start message waiting to be sent with the surface's first components. */
  bufferedStart: JsonObject | undefined;
  /** Message types seen in the current message. */
  #messageTypes: string[] = [];
  #activeType: string | undefined;
  #componentsDirty = false;
  /** Where the last read of the data-model update being written left off; see `#dataModelFragment`. */
  #dataModelCursor:
    | {
        generation: number;
        entriesStart: number;
        head: string;
        /** `head` parsed (repaired), once. */
        headValue?: unknown;
        from: number;
      }
    | undefined;
  /** The message types whose keys announce the message being written, in sniffing order. */
  readonly #messageTypeKeys: readonly string[];
  readonly #metadata: GrowingTextIndex;
  #text = '';
  #inBlock = false;
  #parts: A2uiStreamPart[] = [];
  #failure: unknown;
  readonly #maxBlockBytes: number;
  /** UTF-8 bytes of JSON read in the open block. */
  #blockBytes = 0;
  /** The block's JSON read so far ends in a high surrogate, whose low half may come next. */
  #endsInHighSurrogate = false;
  /** The open block crossed `maxBlockBytes`: its rest is dropped unread. */
  #skippingBlock = false;
  /** The `MESSAGE_TOO_LARGE` error of this push, thrown once the whole chunk has been read. */
  #oversized: A2uiError | undefined;
  /** Parts made ready by a push that threw `MESSAGE_TOO_LARGE`, returned by the next call. */
  #carried: A2uiStreamPart[] = [];

  constructor(options: A2uiStreamParserOptions) {
    this.dialect = STREAM_DIALECTS[options.version ?? 'v0.9'];
    const owner = 'createA2uiStreamParser';
    this.scanner = new JsonBlockScanner(
      resolveLimitOption(owner, 'maxDepth', options.maxDepth, DEFAULT_MAX_DEPTH),
    );
    this.#maxBlockBytes = resolveLimitOption(
      owner,
      'maxBlockBytes',
      options.maxBlockBytes,
      DEFAULT_MAX_BLOCK_BYTES,
    );
    const eagerChars = options.partialStringEagerChars ?? DEFAULT_PARTIAL_STRING_EAGER_CHARS;
    const minGrowth = options.partialStringMinGrowth ?? DEFAULT_PARTIAL_STRING_MIN_GROWTH;
    this.#stringGate = new GrowthGate(eagerChars, minGrowth);
    this.#componentGate = new GrowthGate(eagerChars, minGrowth);
    this.cursor = new SurfaceCursor(this.dialect.defaultRootId);
    const catalog = options.catalogComponents ?? {};
    this.components = new ComponentStreamer(
      this.dialect,
      referenceFieldsOf(catalog),
      this.scanner.meter,
    );
    this.#required = requiredFieldsOf(catalog);
    const { startKey, componentsKey, dataModelKey, deleteKey } = this.dialect;
    // Like the reference parser, v0.9 recognises deleteSurface only once it is complete.
    this.#messageTypeKeys =
      this.dialect.version === 'v0.8'
        ? [startKey, componentsKey, dataModelKey, deleteKey]
        : [startKey, componentsKey, dataModelKey];
    this.#metadata = new GrowingTextIndex(
      [...this.#messageTypeKeys.map((key) => `"${key}":`), `"${dataModelKey}"`],
      ['surfaceId', 'root'],
    );
    this.cuttableKeys = new Set([...DEFAULT_CUTTABLE_KEYS, ...(options.cuttableKeys ?? [])]);
    this.#validate =
      options.validateMessage === false
        ? undefined
        : (options.validateMessage ?? defaultStreamValidator(this.dialect.version));
  }

  push(chunk: string): A2uiStreamPart[] {
    return this.#guard(() => {
      this.#text += chunk;
      while (this.#inBlock ? this.#readBlock() : this.#readText()) {}
    });
  }

  end(): A2uiStreamPart[] {
    return this.#guard(() => {
      if (this.#inBlock) {
        const rest = this.#text;
        this.#text = '';
        this.#readBlockJson(rest);
        if (this.#skippingBlock) this.#leaveBlock();
        else this.#closeBlock();
      } else if (this.#text !== '') {
        this.#emitText(this.#text);
        this.#text = '';
      }
    });
  }

  #guard(read: () => void): A2uiStreamPart[] {
    if (this.#failure !== undefined) throw this.#failure;
    this.#parts = this.#carried;
    this.#carried = [];
    try {
      read();
    } catch (error) {
      this.#failure = error;
      throw error;
    }
    const oversized = this.#oversized;
    if (oversized !== undefined) {
      this.#oversized = undefined;
      this.#carried = this.#parts;
      throw oversized;
    }
    return this.#parts.map((part) =>
      part.type === 'messages'
        ? {
            type: 'messages',
            messages: keepLatestComponentMessages(part.messages, this.dialect.componentsKey),
          }
        : part,
    );
  }

  /** Text outside a block: pass it on, holding back what may be the start of the open tag. */
  #readText(): boolean {
    const open = this.#text.indexOf(A2UI_OPEN_TAG);
    if (open >= 0) {
      if (open > 0) this.#emitText(this.#text.slice(0, open));
      this.#text = this.#text.slice(open + A2UI_OPEN_TAG.length);
      this.#inBlock = true;
      return true;
    }
    const ready = this.#text.length - heldTagPrefixLength(this.#text, A2UI_OPEN_TAG);
    if (ready > 0) {
      this.#emitText(this.#text.slice(0, ready));
      this.#text = this.#text.slice(ready);
    }
    return false;
  }

  /** JSON inside a block: read it, holding back what may be the start of the close tag. */
  #readBlock(): boolean {
    const close = this.#text.indexOf(A2UI_CLOSE_TAG);
    if (close >= 0) {
      this.#readBlockJson(this.#text.slice(0, close));
      this.#text = this.#text.slice(close + A2UI_CLOSE_TAG.length);
      if (this.#skippingBlock) this.#leaveBlock();
      else this.#closeBlock();
      return true;
    }
    const ready = this.#text.length - heldTagPrefixLength(this.#text, A2UI_CLOSE_TAG);
    if (ready > 0) {
      const json = this.#text.slice(0, ready);
      this.#text = this.#text.slice(ready);
      this.#readBlockJson(json);
    }
    return false;
  }

  /** JSON of the open block, unless the block is (or with it becomes) larger than allowed. */
  #readBlockJson(json: string): void {
    if (this.#skippingBlock || json === '') return;
    const room = this.#maxBlockBytes - this.#blockBytes;
    // A pair split across pushes: its high half was counted alone as 3 bytes (U+FFFD, as a lone
    // surrogate encodes), so its low half adds the 1 byte that makes the pair's 4.
    const pairEnd = this.#endsInHighSurrogate && isLowSurrogate(json.charCodeAt(0));
    const bytes = pairEnd
      ? 1 + utf8ByteLength(json.slice(1), room - 1)
      : utf8ByteLength(json, room);
    this.#endsInHighSurrogate = isHighSurrogate(json.charCodeAt(json.length - 1));
    this.#blockBytes += bytes;
    if (bytes <= room) {
      this.#feedJson(json);
      return;
    }
    this.#skippingBlock = true;
    this.scanner.reset();
    this.#oversized ??= new A2uiError(
      'MESSAGE_TOO_LARGE',
      `The <a2ui-json> block is larger than ${this.#maxBlockBytes} bytes (maxBlockBytes); the rest of it is skipped.`,
      { data: { reason: 'size', maxBlockBytes: this.#maxBlockBytes } },
    );
  }

  /** Leaves a block that was too large: what follows its close tag is read afresh. */
  #leaveBlock(): void {
    this.#inBlock = false;
    this.#skippingBlock = false;
    this.#blockBytes = 0;
    this.#endsInHighSurrogate = false;
    this.scanner.reset();
    this.#messageTypes = [];
  }

  #closeBlock(): void {
    if (!this.scanner.foundObject) {
      throw new A2uiError(
        'INVALID_JSON',
        'Failed to parse JSON: No valid JSON object found in A2UI block.',
        { data: { reason: 'json' } },
      );
    }
    this.#inBlock = false;
    this.#blockBytes = 0;
    this.#endsInHighSurrogate = false;
    this.scanner.reset();
    this.#messageTypes = [];
  }

  #feedJson(json: string): void {
    this.scanner.feed(json, this);
    if (this.scanner.depth >= 1 && this.scanner.buffer !== '') this.#sniffPartialMessage();
    if (this.#componentsDirty) {
      this.sendReachable({ requireRoot: false });
      this.#componentsDirty = false;
    }
  }

  /**
   * Shows what arrived of the message being written. Only the component being written and the
   * message holding a data-model update are repaired and parsed (once each), never every open
   * object, so a push costs one pass over the message, whose depth is capped.
   */
  #sniffPartialMessage(): void {
    const scanner = this.scanner;
    const meter = scanner.meter;
    const openString = scanner.openString();
    const componentStart = scanner.openComponentStart();
    if (componentStart !== undefined && this.#admitComponent(componentStart, openString)) {
      const fragment = scanner.textFrom(componentStart);
      for (const component of partialComponents(fragment, [0], this.cuttableKeys, meter))
        this.#receiveComponent(component);
    }
    const open = scanner.openInMessage();
    let dataModelFrom: number | undefined;
    if (open.length > 0 && this.#metadata.has(`"${this.dialect.dataModelKey}"`)) {
      // A long string still being written is read again only once it grew enough.
      const { generation } = scanner;
      if (openString && !this.#stringGate.admit(generation, openString.start, openString.length))
        return;
      const fragment = this.#dataModelFragment(open);
      dataModelFrom = this.#dataModelCursor?.from;
      const target = {
        dialect: this.dialect,
        ledger: this.ledger,
        cuttableKeys: this.cuttableKeys,
        surfaceId: this.cursor.surfaceId,
        meter,
        emitPartial: (message: JsonObject) => this.emit(message, { partial: true }),
      };
      // An entry nested two or more levels deep is read level by level (see OpenValueReader).
      const cursor = this.#dataModelCursor;
      if (cursor !== undefined && open.length > 3) {
        cursor.headValue ??= parsePartialJson(cursor.head, this.cuttableKeys, meter);
        const head = cursor.headValue;
        const key = this.dialect.dataModelKey;
        const payload = isRecord(head) ? head[key] : undefined;
        const value = this.#openValue.read(scanner, open.slice(2), this.cuttableKeys, true);
        if (isRecord(head) && isRecord(payload) && value !== undefined) {
          sniffDataModelMessage({ ...head, [key]: { ...payload, value } }, target);
        }
      } else {
        sniffPartialDataModel({ ...target, pendingJson: fragment, openObjectStarts: [0] });
      }
    }
    scanner.keepFrom(
      Math.min(componentStart ?? Number.POSITIVE_INFINITY, dataModelFrom ?? scanner.buffer.length),
    );
  }

  /**
   * Whether the component being written is read again: while short, on every push; once long,
   * when it grew enough since last read (see {@link GrowthGate}) or a string that was open then
   * has finished since (a finished text is shown at once).
   */
  #admitComponent(start: number, openString: { start: number } | undefined): boolean {
    const scanner = this.scanner;
    const stringFinished = this.#stringOpenAtComponentRead && openString === undefined;
    const length = scanner.buffer.length - start;
    if (!this.#componentGate.admit(scanner.generation, start, length, stringFinished)) return false;
    this.#stringOpenAtComponentRead = openString !== undefined;
    return true;
  }

  /**
   * The data-model update being written, as far as it needs reading again: while its entries
   * (`value`) are open, the entries before the one that was being written at the last read were
   * already sent (the ledger sends each value once) and are left out, so a long update costs each
   * push only its new text, the entry in progress and the update's head.
   */
  #dataModelFragment(open: readonly OpenBracket[]): string {
    const scanner = this.scanner;
    const [message, payload, entries] = open as [OpenBracket, ...OpenBracket[]];
    const entriesKey = this.dialect.dataModelEntriesKey;
    if (
      entriesKey === undefined ||
      payload?.key !== this.dialect.dataModelKey ||
      entries?.key !== entriesKey ||
      entries.char !== '{'
    ) {
      this.#dataModelCursor = undefined;
      return scanner.textFrom(message.start);
    }
    let cursor = this.#dataModelCursor;
    if (cursor?.generation !== scanner.generation || cursor.entriesStart !== entries.start) {
      cursor = {
        generation: scanner.generation,
        entriesStart: entries.start,
        head: scanner.buffer.slice(message.start, entries.start + 1),
        from: entries.start + 1,
      };
    }
    // An entry nested deeper is read level by level instead (see `#sniffPartialMessage`).
    const fragment = open.length > 3 ? '' : cursor.head + scanner.textFrom(cursor.from);
    cursor.from = entries.itemStart;
    this.#dataModelCursor = cursor;
    return fragment;
  }

  // JsonBlockScannerHooks

  onValueStart(): void {
    this.#messageTypes = [];
  }

  onObject(object: JsonObject, position: { topLevel: boolean; inTopLevelList: boolean }): void {
    if (isPresent(object.id) && isPresent(object.component)) {
      this.#receiveComponent(object);
      return;
    }
    const isMessage =
      position.inTopLevelList && this.dialect.messageKeys.some((key) => key in object);
    if (!position.topLevel && !isMessage) return;
    if (!completeMessage(object, this)) this.emit(object, { partial: false });
  }

  onDelimiter(): void {
    const index = this.#metadata;
    const scanner = this.scanner;
    index.update(scanner.generation, scanner.takeAppended(), () => scanner.buffer);
    this.cursor.surfaceId = index.valueOf('surfaceId');
    const root = index.valueOf('root');
    if (root !== undefined) this.cursor.rootId = root;
    for (const key of this.#messageTypeKeys) {
      if (index.has(`"${key}":`)) this.addMessageType(key);
    }
  }

  // MessageHandlerHost

  addMessageType(type: string): void {
    if (!this.#messageTypes.includes(type)) this.#messageTypes.push(type);
    if (COMPONENT_MESSAGE_TYPES.has(type)) this.#activeType = type;
  }

  assertValid(message: JsonObject): void {
    const issues = this.#issuesOf(message, false);
    const issue = issues[0];
    if (issue === undefined) return;
    throw new A2uiError(
      'VALIDATION_FAILED',
      `Validation failed: ${issue.message} (at ${issue.path === '' ? '/' : issue.path})`,
      { path: issue.path, data: { reason: 'schema', issues } },
    );
  }

  /**
   * @param checked - What the validator sees of a partial message, when not all of it: the
   *   components that changed since the last send (the others passed when they were sent).
   */
  emit(
    message: JsonObject,
    { partial, checked }: { partial: boolean; checked?: JsonObject },
  ): boolean {
    if (!this.ledger.admit(message, this.dialect)) return false;
    if (partial) {
      if (this.#issuesOf(checked ?? message, true).length > 0) return false;
    } else {
      this.assertValid(message);
    }
    const last = this.#parts.at(-1);
    if (last?.type === 'messages') (last.messages as JsonObject[]).push(message);
    else this.#parts.push({ type: 'messages', messages: [message] });
    return true;
  }

  deleteSurface(surfaceId: string): void {
    this.pending.delete(surfaceId);
    this.components.forgetSurface(surfaceId);
    this.startedSurfaces.delete(surfaceId);
    this.deletedSurfaces.add(surfaceId);
  }

  markReachableSent(): void {
    const { rootId, surfaceId } = this.cursor;
    if (!rootId || !surfaceId) return;
    this.components
      .take({
        surfaceId,
        rootId,
        requireRoot: false,
        messageType: this.dialect.startKey,
        pendingJson: this.scanner.buffer,
      })
      ?.commit();
  }

  sendReachable({ requireRoot }: { requireRoot: boolean }): void {
    const activeType = this.#componentMessageType();
    const { rootId, surfaceId } = this.cursor;
    if (!rootId || activeType === undefined || !surfaceId) return;
    if (!this.startedSurfaces.has(surfaceId) && this.bufferedStart === undefined) return;
    if (this.deletedSurfaces.has(surfaceId)) return;
    let send: ComponentSend | undefined;
    try {
      send = this.components.take({
        surfaceId,
        rootId,
        requireRoot,
        messageType: activeType,
        pendingJson: this.scanner.buffer,
      });
    } catch (error) {
      const reason = A2uiError.isInstance(error) ? error.data?.reason : undefined;
      // While streaming, only cycles are fatal: anything else may still be fixed by what follows.
      if (
        requireRoot ||
        reason === 'cycle' ||
        reason === 'self-reference' ||
        reason === undefined
      ) {
        throw error;
      }
      return;
    }
    if (send === undefined) return;
    if (this.bufferedStart !== undefined && !this.startedSurfaces.has(surfaceId)) {
      this.emit(this.bufferedStart, { partial: false });
      this.startedSurfaces.add(surfaceId);
    }
    const sent = this.emit(this.dialect.componentsMessage(surfaceId, send.components), {
      partial: true,
      checked: this.dialect.componentsMessage(surfaceId, send.changed),
    });
    // A partial message that failed validation is held back: its components are tried again.
    if (sent) send.commit();
  }

  /** The message type components are being streamed in (undefined before any message type). */
  #issuesOf(message: JsonObject, partial: boolean): readonly ValidationIssue[] {
    return this.#validate?.(message, { partial, version: this.dialect.version }) ?? [];
  }

  #componentMessageType(): string | undefined {
    if (this.#activeType !== undefined) return this.#activeType;
    const type = this.#messageTypes.find(
      (candidate) =>
        candidate === this.dialect.componentsKey || candidate === this.dialect.startKey,
    );
    if (type !== undefined) this.#activeType = type;
    return type ?? this.#messageTypes[0];
  }

  #emitText(text: string): void {
    this.#parts.push({ type: 'text', text });
  }

  /** A component object closed inside a message: keep it unless it is visibly unfinished. */
  #receiveComponent(component: JsonObject): void {
    if (!isShowable(component, this.#required)) return;
    this.components.received.set(String(component.id), component);
    this.#componentsDirty = true;
  }
}

/**
 * The characters `parser` has read so far (scanned, repaired and parsed JSON text, and the
 * component copies it made, serialised). Internal:
 * tests use it to prove the parser's work grows with its input, not with input × buffer.
 *
 * @internal
 */
export function streamParserCharsRead(parser: A2uiStreamParser): number {
  return parser instanceof StreamParser ? parser.scanner.meter.charsRead : 0;
}

/**
 * Creates a streaming parser for model output that mixes text with `<a2ui-json>` blocks
 * holding A2UI messages (a JSON array of messages, or one message). Feed it chunks as they
 * arrive; it returns text as soon as it cannot be part of a tag and messages as soon as they are
 * safe to render:
 * - a start message (`createSurface` / `beginRendering`) once it is complete;
 * - components once they are reachable from the surface's root (orphans are held back), with a
 *   placeholder `Row` (`loading_<id>`) for each child not yet received, re-sent as they fill in;
 *   free text (`text`, `literalString`, … see {@link DEFAULT_CUTTABLE_KEYS}) shows while being
 *   written (past 1 KiB in steps of a quarter of its length, see
 *   {@link A2uiStreamParserOptions.partialStringEagerChars}), ids, paths and URLs only once
 *   complete;
 * - component and data-model messages for a surface whose start message has not arrived are held
 *   until it does; data-model entries are sent as each finishes, each value once.
 *
 * Spec: A2UI v0.9 §2 (message types, the component tree), v0.8 (`beginRendering`,
 * `surfaceUpdate`, `dataModelUpdate`); the official agent SDKs' streaming parser and its
 * conformance suite (`conformance/agent/streaming_parser.yaml`).
 *
 * @param options - See {@link A2uiStreamParserOptions}.
 * @throws A2uiError `VALIDATION_FAILED` when `maxDepth` or `maxBlockBytes` is not a positive
 *   integer or `Infinity`.
 * @example
 * ```ts
 * const parser = createA2uiStreamParser({ version: 'v0.9' });
 * for (const chunk of ['Here you go <a2ui-json>[{"version":"v0.9",', '"createSurface":{"surfaceId":"s","catalogId":"c"}}]</a2ui-json>']) {
 *   for (const part of parser.push(chunk)) console.log(part);
 * }
 * parser.end();
 * ```
 */
export function createA2uiStreamParser(options: A2uiStreamParserOptions = {}): A2uiStreamParser {
  return new StreamParser(options);
}
