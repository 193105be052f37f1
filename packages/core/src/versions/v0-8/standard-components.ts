/**
 * The v0.8 standard catalog (`standard_catalog_definition.json`) against the v0.9 basic catalog:
 * one table of renamed types, properties and enum values, read in both directions.
 */
import type { LiteralKind } from './bound-values.js';

/** How one v0.9 basic-catalog property is written in v0.8. */
export interface PropertyRule {
  /** Its v0.8 name. @default the v0.9 name */
  v08?: string;
  /**
   * `bound`: a DynamicValue ↔ BoundValue of `literal` type; `children`: a ChildList ↔
   * `{explicitList | template}`; `action`: an Action; `plain`: copied (component ids, enums, flags);
   * `items`: an array whose objects follow `item` rules.
   */
  kind: 'bound' | 'children' | 'action' | 'plain' | 'items';
  literal?: LiteralKind;
  /**
   * v0.8 requires it: when its value cannot be expressed, an empty literal stands in so that the
   * component stays valid (and the loss is reported).
   */
  required?: boolean;
  /** v0.9 enum value → v0.8 enum value, where they differ; a v0.9 value mapped to `null` has none. */
  values?: Record<string, string | null>;
  item?: Record<string, PropertyRule>;
}

/** One basic-catalog component type and its v0.8 counterpart. */
export interface ComponentRule {
  /** Its v0.8 type name. @default the v0.9 name */
  v08?: string;
  properties: Record<string, PropertyRule>;
}

const bound = (literal: LiteralKind, v08?: string): PropertyRule => ({
  kind: 'bound',
  literal,
  v08,
});
const required = (rule: PropertyRule): PropertyRule => ({ ...rule, required: true });
const plain = (v08?: string, values?: Record<string, string | null>): PropertyRule => ({
  kind: 'plain',
  v08,
  values,
});
const children: PropertyRule = { kind: 'children' };
const JUSTIFY = { stretch: null };

/**
 * v0.9 basic components by type. Properties missing here (`checks`, `accessibility`, ChoicePicker
 * `label`, Slider `label`, DateTimeInput `min`/`max`/`label`) have no v0.8 form. Button `variant`
 * and ChoicePicker `variant` are special-cased by the callers (they become `primary` and
 * `maxAllowedSelections`).
 */
export const BASIC_COMPONENT_RULES: Readonly<Record<string, ComponentRule>> = {
  Text: { properties: { text: required(bound('string')), variant: plain('usageHint') } },
  Image: {
    properties: {
      url: required(bound('string')),
      description: bound('string', 'altText'),
      fit: plain(undefined, { scaleDown: 'scale-down' }),
      variant: plain('usageHint'),
    },
  },
  Icon: { properties: { name: required(bound('string')) } },
  Video: { properties: { url: required(bound('string')) } },
  AudioPlayer: { properties: { url: required(bound('string')), description: bound('string') } },
  Row: {
    properties: { children, justify: plain('distribution', JUSTIFY), align: plain('alignment') },
  },
  Column: {
    properties: { children, justify: plain('distribution', JUSTIFY), align: plain('alignment') },
  },
  List: { properties: { children, direction: plain(), align: plain('alignment') } },
  Card: { properties: { child: plain() } },
  Tabs: {
    properties: {
      tabs: {
        kind: 'items',
        v08: 'tabItems',
        item: { title: required(bound('string')), child: plain() },
      },
    },
  },
  Modal: { properties: { trigger: plain('entryPointChild'), content: plain('contentChild') } },
  Divider: { properties: { axis: plain() } },
  Button: { properties: { child: plain(), action: { kind: 'action' } } },
  CheckBox: { properties: { label: required(bound('string')), value: required(bound('boolean')) } },
  TextField: {
    properties: {
      label: required(bound('string')),
      value: bound('string', 'text'),
      variant: plain('textFieldType'),
      validationRegexp: plain(),
    },
  },
  DateTimeInput: {
    properties: { value: required(bound('string')), enableDate: plain(), enableTime: plain() },
  },
  ChoicePicker: {
    v08: 'MultipleChoice',
    properties: {
      value: required(bound('stringList', 'selections')),
      options: { kind: 'items', item: { label: required(bound('string')), value: plain() } },
      displayStyle: plain('variant'),
      filterable: plain(),
    },
  },
  Slider: {
    properties: {
      value: required(bound('number')),
      min: plain('minValue'),
      max: plain('maxValue'),
    },
  },
};

/**
 * Properties the v0.9 basic catalog requires but the v0.8 standard catalog does not, by v0.9
 * type: a component the v0.8 schema accepts without one upgrades to a basic component that lacks
 * it, so for such a component the v0.8 schema proves nothing about its upgraded form (see
 * `provenByV08Schema`). Read off the two official catalogs; `v08-upgrade-validity.test.ts` checks
 * it against them.
 */
export const BASIC_ONLY_REQUIRED: Readonly<Record<string, readonly string[]>> = {
  Slider: ['max'],
};

/** v0.8 type name → v0.9 type name and v0.8 property name → v0.9 property name. */
export interface UpgradeRule {
  type: string;
  names: Record<string, string>;
  /** v0.8 enum value → v0.9 value, by v0.9 property name. */
  values: Record<string, Record<string, string>>;
}

/** {@link BASIC_COMPONENT_RULES} read from the v0.8 side, by v0.8 type name. */
export const V08_UPGRADE_RULES: Readonly<Record<string, UpgradeRule>> = Object.fromEntries(
  Object.entries(BASIC_COMPONENT_RULES).map(([type, rule]) => {
    const names: Record<string, string> = {};
    const values: Record<string, Record<string, string>> = {};
    for (const [name, property] of Object.entries(rule.properties)) {
      names[property.v08 ?? name] = name;
      const inverse: Record<string, string> = {};
      for (const [v09, v08] of Object.entries(property.values ?? {})) if (v08) inverse[v08] = v09;
      values[name] = inverse;
    }
    return [rule.v08 ?? type, { type, names, values }];
  }),
);
