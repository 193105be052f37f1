/**
 * v0.8 `BoundValue`s, `explicitList`/`template` children, actions and `dataModelUpdate.contents`
 * to and from their v0.9 shapes (v0.8 §3.2, §4.1, §4.2, §5.2). Pure functions.
 */

import type { IssueSink } from '../../migrate/migration-issue.js';
import { isRecord, setOwn } from '../../protocol/guards.js';
import type { V08BoundValue, V08DataEntry } from './v08-messages.js';

const BOUND_KEYS = new Set([
  'path',
  'literalString',
  'literalNumber',
  'literalBoolean',
  'literalArray',
]);
const LITERAL_KEYS = ['literalString', 'literalNumber', 'literalBoolean', 'literalArray'] as const;

/** True for a non-empty object whose keys are all `BoundValue` keys (`path`, `literal*`). */
export function isV08BoundValue(value: unknown): boolean {
  return isRecord(value) && areBoundKeys(Object.keys(value));
}

/** `keys` are those of a BoundValue. A loop, not `every`: it runs for every object property. */
function areBoundKeys(keys: readonly string[]): boolean {
  if (keys.length === 0) return false;
  for (const key of keys) if (!BOUND_KEYS.has(key)) return false;
  return true;
}

/** A data-model write a `{path, literal*}` BoundValue implies (v0.8 §4.2 "Initialization Shorthand"). */
export interface Initialization {
  path: string;
  value: unknown;
}

/**
 * A v0.8 BoundValue as a v0.9 DynamicValue: a literal stays a literal, a `path` becomes
 * `{"path"}`; with both, the binding wins and `initializations` gets the literal.
 */
export function upgradeBoundValue(
  value: V08BoundValue,
  initializations: Initialization[],
): unknown {
  let literalKey: (typeof LITERAL_KEYS)[number] | undefined;
  for (const key of LITERAL_KEYS) {
    if (key in value) {
      literalKey = key;
      break;
    }
  }
  if (typeof value.path !== 'string') return literalKey ? value[literalKey] : undefined;
  if (literalKey) initializations.push({ path: value.path, value: value[literalKey] });
  return { path: value.path };
}

/**
 * Rewrites a v0.8 property value into v0.9 shape, recursively: BoundValues, `explicitList` and
 * `template` children, and `{name, context: [{key, value}]}` actions (the latter only under
 * `action`). Anything else is copied.
 */
export function upgradeValue(
  value: unknown,
  key: string,
  initializations: Initialization[],
): unknown {
  if (Array.isArray(value)) return value.map((item) => upgradeValue(item, '', initializations));
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  if (areBoundKeys(keys)) return upgradeBoundValue(value as V08BoundValue, initializations);
  if (keys.length === 1 && Array.isArray(value.explicitList)) return [...value.explicitList];
  if (keys.length === 1 && isRecord(value.template)) {
    const { componentId, dataBinding } = value.template;
    return { componentId, path: dataBinding };
  }
  if (key === 'action' && typeof value.name === 'string')
    return upgradeAction(value, initializations);
  const result: Record<string, unknown> = {};
  for (const name of keys) setOwn(result, name, upgradeValue(value[name], name, initializations));
  return result;
}

function upgradeAction(
  action: Record<string, unknown>,
  initializations: Initialization[],
): unknown {
  const context: Record<string, unknown> = {};
  if (Array.isArray(action.context)) {
    for (const entry of action.context) {
      if (!isRecord(entry) || typeof entry.key !== 'string') continue;
      setOwn(context, entry.key, upgradeValue(entry.value, '', initializations));
    }
  }
  const event: Record<string, unknown> = { name: action.name };
  if (Array.isArray(action.context)) event.context = context;
  return { event };
}

/** The literal type a v0.9 DynamicValue downgrades to. */
export type LiteralKind = 'string' | 'number' | 'boolean' | 'stringList' | 'any';

const LITERAL_KEY_OF: Record<string, keyof V08BoundValue> = {
  string: 'literalString',
  number: 'literalNumber',
  boolean: 'literalBoolean',
};

/**
 * A v0.9 DynamicValue as a v0.8 BoundValue, or `undefined` (reported to `sink`) when v0.8 cannot
 * express it: function calls, and literals of the wrong type.
 */
export function downgradeDynamicValue(
  value: unknown,
  kind: LiteralKind,
  path: string,
  sink: IssueSink,
): V08BoundValue | undefined {
  if (isRecord(value) && typeof value.path === 'string' && Object.keys(value).length === 1) {
    return { path: value.path };
  }
  if (isRecord(value) && typeof value.call === 'string') {
    sink.lost(
      path,
      `function call "${value.call}" has no v0.8 equivalent (v0.8 binds literals and paths only)`,
    );
    return undefined;
  }
  if (kind === 'stringList' || (kind === 'any' && Array.isArray(value))) {
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      return { literalArray: [...value] };
    }
  } else {
    const literalKey = LITERAL_KEY_OF[typeof value];
    if (literalKey && (kind === 'any' || kind === typeof value)) return { [literalKey]: value };
  }
  sink.lost(path, `value ${JSON.stringify(value)} has no v0.8 BoundValue form`);
  return undefined;
}

/** `dataModelUpdate.contents` as the JSON object it describes; `valueMap`s nest. */
export function contentsToValue(contents: readonly V08DataEntry[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const entry of contents) {
    if (!isRecord(entry) || typeof entry.key !== 'string') continue;
    setOwn(result, entry.key, entryValue(entry));
  }
  return result;
}

/** The value of one contents entry (`valueString`, `valueNumber`, `valueBoolean` or `valueMap`). */
export function entryValue(entry: V08DataEntry): unknown {
  if (Array.isArray(entry.valueMap)) return contentsToValue(entry.valueMap);
  if ('valueString' in entry) return entry.valueString;
  if ('valueNumber' in entry) return entry.valueNumber;
  if ('valueBoolean' in entry) return entry.valueBoolean;
  return undefined;
}

/** A v0.8 data path as a JSON Pointer: `"user"` → `"/user"`, omitted → `"/"`. */
export function normalizeV08Path(path: string | undefined): string {
  if (path === undefined || path === '') return '/';
  return path.startsWith('/') ? path : `/${path}`;
}
