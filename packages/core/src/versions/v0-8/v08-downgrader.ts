/**
 * Downgrades v0.9 server messages to v0.8 where v0.8 can express them; everything else is
 * reported. Stateful only to remember which surfaces use the basic catalog.
 */
import { IssueSink, type MigrationIssue } from '../../migrate/migration-issue.js';
import { BASIC_CATALOG_ID } from '../../protocol/constants.js';
import { getServerMessageKind, isRecord } from '../../protocol/guards.js';
import type {
  CreateSurface,
  ServerMessage,
  UpdateComponents,
  UpdateDataModel,
} from '../../protocol/messages.js';
import { encodeSegment } from '../../state/json-pointer.js';
import { downgradeComponent } from './translate-component.js';
import {
  V08_STANDARD_CATALOG_ID,
  type V08DataEntry,
  type V08ServerMessage,
} from './v08-messages.js';

/** The v0.8 messages one v0.9 message became, and what could not be expressed. */
export interface V08DowngradeResult {
  messages: V08ServerMessage[];
  issues: MigrationIssue[];
}

/**
 * Translates v0.9 server messages into v0.8 ones: `createSurface` becomes `beginRendering` (root
 * `"root"`, sent first, which v0.8 allows), components are re-wrapped and mapped onto the v0.8
 * standard catalog, data becomes `contents` entries.
 *
 * @example
 * ```ts
 * const { messages, issues } = new V08Downgrader().downgrade(v09Message);
 * ```
 */
export class V08Downgrader {
  readonly #standard = new Map<string, boolean>();

  /**
   * Downgrades one v0.9 message (already schema-valid).
   * @param index - its position in the input, for issues
   */
  downgrade(message: ServerMessage, index = 0): V08DowngradeResult {
    const sink = new IssueSink();
    sink.index = index;
    const messages: V08ServerMessage[] = [];
    const kind = getServerMessageKind(message);
    const body = kind ? (message as unknown as Record<string, unknown>)[kind] : undefined;
    if (kind && isRecord(body)) {
      switch (kind) {
        case 'createSurface':
          messages.push(this.#createSurface(body as unknown as CreateSurface, sink));
          break;
        case 'updateComponents':
          messages.push(this.#updateComponents(body as unknown as UpdateComponents, sink));
          break;
        case 'updateDataModel':
          messages.push(...downgradeDataModel(body as unknown as UpdateDataModel, sink));
          break;
        case 'deleteSurface':
          this.#standard.delete(body.surfaceId as string);
          messages.push({ deleteSurface: { surfaceId: body.surfaceId as string } });
          break;
      }
    }
    return { messages, issues: sink.issues };
  }

  #createSurface(body: CreateSurface, sink: IssueSink): V08ServerMessage {
    const standard = body.catalogId === BASIC_CATALOG_ID;
    this.#standard.set(body.surfaceId, standard);
    const beginRendering: Record<string, unknown> = { surfaceId: body.surfaceId, root: 'root' };
    if (!standard) beginRendering.catalogId = body.catalogId;
    if (body.theme !== undefined) beginRendering.styles = body.theme;
    if (body.sendDataModel === true) {
      sink.lost(
        '/createSurface/sendDataModel',
        'sendDataModel has no v0.8 equivalent (v0.8 never sends the data model)',
      );
    }
    return { beginRendering } as unknown as V08ServerMessage;
  }

  #updateComponents(body: UpdateComponents, sink: IssueSink): V08ServerMessage {
    const standard = this.#standard.get(body.surfaceId) ?? true;
    const components = body.components.map((component, index) =>
      downgradeComponent(component, {
        standard,
        sink,
        path: `/updateComponents/components/${index}`,
      }),
    );
    return { surfaceUpdate: { surfaceId: body.surfaceId, components } };
  }
}

/** `{"catalogId"}` of v0.8's default catalog: what `beginRendering` means when it names none. */
export const V08_DEFAULT_CATALOG_ID = V08_STANDARD_CATALOG_ID;

/**
 * `updateDataModel` as `dataModelUpdate`s: v0.8 `valueMap`s hold only strings, numbers and
 * booleans, so deeper objects follow in further messages at deeper paths (each replaces the
 * value at its path, so the result is the same object).
 */
function downgradeDataModel(body: UpdateDataModel, sink: IssueSink): V08ServerMessage[] {
  const { surfaceId } = body;
  const path = body.path === undefined || body.path === '' ? '/' : body.path;
  if (!('value' in body) || body.value === undefined) {
    sink.lost('/updateDataModel', `removing the value at "${path}" has no v0.8 equivalent`);
    return [];
  }
  const out: V08ServerMessage[] = [];
  const value = toV08Value(body.value, '/updateDataModel/value', sink);
  if (isRecord(value)) {
    writeObject(surfaceId, path, value, out);
  } else if (path === '/') {
    sink.lost(
      '/updateDataModel/value',
      'a data model root that is not an object has no v0.8 equivalent',
    );
  } else {
    const entry = primitiveEntry('.', value);
    // `{"key": "."}` writes the value at `path` itself (the reference renderers' convention).
    if (entry) out.push({ dataModelUpdate: { surfaceId, path, contents: [entry] } });
  }
  return out;
}

function writeObject(
  surfaceId: string,
  path: string,
  value: Record<string, unknown>,
  out: V08ServerMessage[],
): void {
  const contents: V08DataEntry[] = [];
  const deeper: [string, Record<string, unknown>][] = [];
  const message: V08ServerMessage = { dataModelUpdate: { surfaceId, contents } };
  if (path !== '/') message.dataModelUpdate.path = path;
  out.push(message);
  const base = path === '/' ? '' : path;
  for (const [key, item] of Object.entries(value)) {
    if (!isRecord(item)) {
      const entry = primitiveEntry(key, item);
      if (entry) contents.push(entry);
      continue;
    }
    const valueMap: V08DataEntry[] = [];
    for (const [innerKey, inner] of Object.entries(item)) {
      if (isRecord(inner))
        deeper.push([`${base}/${encodeSegment(key)}/${encodeSegment(innerKey)}`, inner]);
      else {
        const entry = primitiveEntry(innerKey, inner);
        if (entry) valueMap.push(entry);
      }
    }
    contents.push({ key, valueMap });
  }
  for (const [deeperPath, item] of deeper) writeObject(surfaceId, deeperPath, item, out);
}

function primitiveEntry(key: string, value: unknown): V08DataEntry | undefined {
  if (typeof value === 'string') return { key, valueString: value };
  if (typeof value === 'number') return { key, valueNumber: value };
  if (typeof value === 'boolean') return { key, valueBoolean: value };
  return undefined;
}

/**
 * `value` with what v0.8 data cannot hold reported: `null` is dropped, an array becomes a map
 * keyed by index (v0.8 templates iterate maps).
 */
function toV08Value(value: unknown, path: string, sink: IssueSink): unknown {
  if (value === null) {
    sink.lost(path, 'null has no v0.8 data-model equivalent; dropped');
    return undefined;
  }
  if (Array.isArray(value)) {
    sink.lost(path, 'v0.8 data has no arrays; written as a map keyed by index');
    return Object.fromEntries(
      value.map((item, index) => [String(index), toV08Value(item, `${path}/${index}`, sink)]),
    );
  }
  if (!isRecord(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const converted = toV08Value(item, `${path}/${encodeSegment(key)}`, sink);
    if (converted !== undefined)
      Object.defineProperty(result, key, {
        value: converted,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return result;
}
