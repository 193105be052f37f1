/**
 * One component between v0.8 (`{"id", "component": {"Text": {…}}}`) and v0.9
 * (`{"id", "component": "Text", …}`). Pure; what cannot be expressed goes to the {@link IssueSink}.
 */
import type { IssueSink } from '../../migrate/migration-issue.js';
import { isRecord, setOwn } from '../../protocol/guards.js';
import type { ComponentInstance } from '../../protocol/messages.js';
import { encodeSegment } from '../../state/json-pointer.js';
import {
  downgradeDynamicValue,
  type Initialization,
  upgradeBoundValue,
  upgradeValue,
} from './bound-values.js';
import {
  BASIC_COMPONENT_RULES,
  BASIC_ONLY_REQUIRED,
  type PropertyRule,
  V08_UPGRADE_RULES,
} from './standard-components.js';
import type { V08Component } from './v08-messages.js';

/** v0.8 enum values the v0.9 basic catalog dropped, by v0.9 type and property. */
const V08_ONLY_VALUES: Record<string, Record<string, readonly string[]>> = {
  TextField: { variant: ['date'] },
};

/** How one v0.8 property of a standard type upgrades. */
interface PropertyUpgrade {
  /** The v0.9 property name. */
  readonly name: string;
  /** v0.8 enum value → v0.9 value. */
  readonly values: ReadonlyMap<string, string> | undefined;
  /** v0.8 values with no v0.9 equivalent. */
  readonly dropped: readonly string[] | undefined;
}

/**
 * {@link V08_UPGRADE_RULES} as Maps, for the per-property lookups of every upgraded component
 * (a Map needs no own-key guard against `"__proto__"`, and is the cheaper lookup); one lookup by
 * v0.8 property name finds everything about it.
 */
interface UpgradeLookup {
  readonly type: string;
  /** By v0.8 property name; a name not listed keeps its name and values. */
  readonly properties: ReadonlyMap<string, PropertyUpgrade>;
}

const UPGRADE_LOOKUPS: ReadonlyMap<string, UpgradeLookup> = new Map(
  Object.entries(V08_UPGRADE_RULES).map(([v08Type, rule]) => {
    const dropped = ownValue(V08_ONLY_VALUES, rule.type) ?? {};
    const properties = new Map<string, PropertyUpgrade>();
    const add = (v08Name: string, v09Name: string) => {
      const values = ownValue(rule.values, v09Name);
      properties.set(v08Name, {
        name: v09Name,
        values:
          values && Object.keys(values).length > 0 ? new Map(Object.entries(values)) : undefined,
        dropped: ownValue(dropped, v09Name),
      });
    };
    for (const [v08Name, v09Name] of Object.entries(rule.names)) add(v08Name, v09Name);
    // A name the rules do not rename may still have values to map or drop under its own name.
    for (const v09Name of [...Object.keys(rule.values), ...Object.keys(dropped)])
      if (!properties.has(v09Name) && !Object.hasOwn(rule.names, v09Name)) add(v09Name, v09Name);
    return [v08Type, { type: rule.type, properties }];
  }),
);

/** Options of {@link upgradeComponent}. */
export interface UpgradeComponentOptions {
  /** Map v0.8 standard-catalog names onto the v0.9 basic catalog (else only shapes change). */
  standard: boolean;
  /** Where `{path, literal*}` shorthands put their data-model writes. */
  initializations: Initialization[];
  sink: IssueSink;
  /** JSON Pointer of the component in its message. */
  path: string;
}

/**
 * `record[key]` when `key` is the record's own: type and property names come from the agent, and
 * `"__proto__"` or `"constructor"` must not find `Object.prototype` members.
 */
function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A v0.8 component in v0.9 shape. */
export function upgradeComponent(
  component: V08Component,
  options: UpgradeComponentOptions,
): ComponentInstance {
  const wrapper = isRecord(component.component) ? component.component : {};
  let type = '';
  // The wrapper holds exactly one key (the validator checked it): the component type.
  for (const key in wrapper) {
    if (Object.hasOwn(wrapper, key)) {
      type = key;
      break;
    }
  }
  const properties = type === '' ? undefined : wrapper[type];
  const rule = options.standard ? UPGRADE_LOOKUPS.get(type) : undefined;
  const result: ComponentInstance = { id: component.id, component: rule?.type ?? type };
  const source = isRecord(properties) ? properties : {};
  for (const name of Object.keys(source)) {
    const property = rule?.properties.get(name);
    const v09Name = property?.name ?? name;
    let v09Value = upgradeValue(source[name], name, options.initializations);
    if (property && typeof v09Value === 'string') {
      v09Value = property.values?.get(v09Value) ?? v09Value;
      if (property.dropped?.includes(v09Value as string)) {
        options.sink.lost(
          `${options.path}/component/${encodeSegment(type)}/${encodeSegment(name)}`,
          `${type}.${name} "${v09Value}" has no v0.9 basic-catalog equivalent; dropped`,
        );
        continue;
      }
    }
    setOwn(result, v09Name, v09Value);
  }
  if (rule) upgradeSpecialCases(type, result, options);
  if (typeof component.weight === 'number') result.weight = component.weight;
  return result;
}

/**
 * True when `component`, the upgrade of a standard-catalog component the v0.8 standard schema
 * accepted, is thereby a valid v0.9 basic component: unless it lacks a property only the basic
 * catalog requires ({@link BASIC_ONLY_REQUIRED}). `v08-upgrade-validity.test.ts` proves the rule
 * over the official v0.8 catalog.
 */
export function provenByV08Schema(component: ComponentInstance): boolean {
  const required = ownValue(BASIC_ONLY_REQUIRED, component.component);
  return required === undefined || required.every((name) => name in component);
}

/** Button `primary` and MultipleChoice `maxAllowedSelections` have no same-named v0.9 property. */
function upgradeSpecialCases(
  type: string,
  result: ComponentInstance,
  options: UpgradeComponentOptions,
): void {
  if (type === 'Button' && 'primary' in result) {
    if (result.primary === true) result.variant = 'primary';
    delete result.primary;
  }
  if (type === 'MultipleChoice') {
    const max = result.maxAllowedSelections;
    delete result.maxAllowedSelections;
    // v0.8 without a limit allows any number of selections; v0.9 defaults to one.
    // ChoicePicker's default is mutuallyExclusive, so a limit of one needs no variant.
    if (max !== 1) result.variant = 'multipleSelection';
    if (typeof max === 'number' && max > 1) {
      options.sink.lost(
        `${options.path}/component/MultipleChoice/maxAllowedSelections`,
        `MultipleChoice.maxAllowedSelections ${max} has no v0.9 equivalent (ChoicePicker allows one or any number)`,
      );
    }
  }
}

/** A `{path, literal*}` BoundValue's initial write, for callers that translate one value. */
export { upgradeBoundValue };

/** Options of {@link downgradeComponent}. */
export interface DowngradeComponentOptions {
  /** The surface uses the basic catalog: map names onto the v0.8 standard catalog. */
  standard: boolean;
  sink: IssueSink;
  /** JSON Pointer of the component in its message. */
  path: string;
}

/** A v0.9 component in v0.8 shape; properties v0.8 cannot express are dropped and reported. */
export function downgradeComponent(
  component: ComponentInstance,
  options: DowngradeComponentOptions,
): V08Component {
  const { id, component: type, weight, ...properties } = component;
  const rule = options.standard ? ownValue(BASIC_COMPONENT_RULES, type) : undefined;
  const v08Properties: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(properties)) {
    const path = `${options.path}/${encodeSegment(name)}`;
    const special = rule && downgradeSpecialCase(type, name, value, path, options.sink);
    if (special) {
      if (special.value !== undefined) setOwn(v08Properties, special.name, special.value);
      continue;
    }
    const property: PropertyRule | undefined = rule
      ? ownValue(rule.properties, name)
      : { kind: name === 'action' ? 'action' : name === 'children' ? 'children' : 'plain' };
    if (!property) {
      options.sink.lost(path, `${type}.${name} has no v0.8 standard-catalog equivalent; dropped`);
      continue;
    }
    const v08Value = downgradeProperty(value, property, path, options.sink);
    if (v08Value !== undefined) setOwn(v08Properties, property.v08 ?? name, v08Value);
  }
  // ChoicePicker without a variant is mutuallyExclusive; MultipleChoice without a limit is not.
  if (rule && type === 'ChoicePicker' && !('variant' in properties)) {
    v08Properties.maxAllowedSelections = 1;
  }
  const result: V08Component = { id, component: { [rule?.v08 ?? type]: v08Properties } };
  if (typeof weight === 'number') result.weight = weight;
  return result;
}

function downgradeSpecialCase(
  type: string,
  name: string,
  value: unknown,
  path: string,
  sink: IssueSink,
): { name: string; value: unknown } | undefined {
  if (type === 'Button' && name === 'variant') {
    if (value === 'borderless')
      sink.lost(path, 'Button variant "borderless" has no v0.8 equivalent');
    return { name: 'primary', value: value === 'primary' ? true : undefined };
  }
  if (type === 'ChoicePicker' && name === 'variant') {
    return { name: 'maxAllowedSelections', value: value === 'mutuallyExclusive' ? 1 : undefined };
  }
  return undefined;
}

function downgradeProperty(
  value: unknown,
  rule: PropertyRule,
  path: string,
  sink: IssueSink,
): unknown {
  switch (rule.kind) {
    case 'bound': {
      const bound = downgradeDynamicValue(value, rule.literal ?? 'any', path, sink);
      return bound === undefined && rule.required ? emptyLiteral(rule.literal, path, sink) : bound;
    }
    case 'children':
      return downgradeChildren(value, path, sink);
    case 'action':
      return downgradeAction(value, path, sink);
    case 'items':
      return Array.isArray(value)
        ? value.map((item, index) => downgradeItem(item, rule.item ?? {}, `${path}/${index}`, sink))
        : value;
    case 'plain': {
      if (typeof value !== 'string' || !rule.values || !Object.hasOwn(rule.values, value))
        return value;
      const mapped = rule.values[value];
      if (mapped === null) sink.lost(path, `value "${value}" has no v0.8 equivalent; dropped`);
      return mapped ?? undefined;
    }
  }
}

/** The stand-in for a required value v0.8 cannot express (reported beside the loss). */
function emptyLiteral(kind: PropertyRule['literal'], path: string, sink: IssueSink): unknown {
  sink.lost(path, 'the property is required in v0.8, so an empty literal stands in for it');
  switch (kind) {
    case 'number':
      return { literalNumber: 0 };
    case 'boolean':
      return { literalBoolean: false };
    case 'stringList':
      return { literalArray: [] };
    default:
      return { literalString: '' };
  }
}

function downgradeItem(
  item: unknown,
  rules: Record<string, PropertyRule>,
  path: string,
  sink: IssueSink,
): unknown {
  if (!isRecord(item)) return item;
  const result: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) {
    const rule = rules[name] ?? { kind: 'plain' };
    const v08 = downgradeProperty(value, rule, `${path}/${encodeSegment(name)}`, sink);
    if (v08 !== undefined) setOwn(result, rule.v08 ?? name, v08);
  }
  return result;
}

function downgradeChildren(value: unknown, path: string, sink: IssueSink): unknown {
  if (Array.isArray(value)) return { explicitList: [...value] };
  if (isRecord(value) && typeof value.componentId === 'string' && typeof value.path === 'string') {
    return { template: { componentId: value.componentId, dataBinding: value.path } };
  }
  sink.lost(path, 'children in a shape v0.8 cannot express; dropped');
  return undefined;
}

function downgradeAction(value: unknown, path: string, sink: IssueSink): unknown {
  if (!isRecord(value) || !isRecord(value.event)) {
    sink.lost(
      path,
      'a functionCall action has no v0.8 equivalent (v0.8 actions only send userAction); dropped',
    );
    return undefined;
  }
  const { name, context } = value.event;
  const action: Record<string, unknown> = { name };
  if (isRecord(context)) {
    action.context = Object.entries(context).flatMap(([key, item]) => {
      const bound = downgradeDynamicValue(
        item,
        'any',
        `${path}/event/context/${encodeSegment(key)}`,
        sink,
      );
      return bound ? [{ key, value: bound }] : [];
    });
  }
  return action;
}
