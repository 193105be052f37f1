/**
 * Pieces every built-in component shares: root attributes (`weight`, ids for tests and styling),
 * accessibility attributes (§5.1), two-way values (§7.6) and check messages (§8.4).
 */
import {
  type CheckFailure,
  type CheckResult,
  isRecord,
  type ResolvedAccessibility,
  resolveAccessibility,
  toDisplayString,
} from '@a2ui-ts/core';
import {
  type CSSProperties,
  type ReactNode,
  version as reactVersion,
  useCallback,
  useId,
  useState,
} from 'react';
import type { A2uiNode, CommonProps } from '../registry/a2ui-component.js';

/** Class, test id, `weight` → flex, and the v1.0 `live`/`hidden` ARIA of an outermost element. */
export interface RootAttributes {
  className: string;
  'data-a2ui-id': string;
  style?: CSSProperties;
  /** `accessibility.live` (v1.0), when the agent set it. */
  'aria-live'?: AccessibilityLive;
  /** `accessibility.hidden` (v1.0), when it resolved to a boolean. */
  'aria-hidden'?: boolean;
  /** Set with `aria-hidden="true"`: see {@link accessibilityStateAttributes}. */
  inert?: boolean;
}

/** `AccessibilityAttributes.live` (v1.0 `common_types.json`). */
export type AccessibilityLive = 'off' | 'polite' | 'assertive';

const LIVE_VALUES: ReadonlySet<unknown> = new Set(['off', 'polite', 'assertive']);

/**
 * React 19 knows `inert` as a boolean attribute; React 18 passes unknown attributes through as
 * strings, where only `""` means "on" (and `true` is dropped with a warning). Typed as React 19's
 * `boolean` for the JSX types this package compiles against.
 */
const INERT_ON = (Number.parseInt(reactVersion, 10) >= 19 ? true : '') as boolean;

/**
 * `accessibility.live` → `aria-live` and `accessibility.hidden` → `aria-hidden` (v1.0
 * "Catalog-Agnostic Accessibility Requirements"), only what the agent set: an explicit value wins
 * over whatever a component infers, so components spread these last. A hidden subtree is also
 * `inert`: content screen readers cannot perceive must not take keyboard focus either (WCAG 4.1.2,
 * axe `aria-hidden-focus`), and `inert` is the one attribute that takes a whole subtree out of the
 * tab order. The agent marked it decorative, so it stops being interactive too.
 */
export function accessibilityStateAttributes(
  props: CommonProps,
): Pick<RootAttributes, 'aria-live' | 'aria-hidden' | 'inert'> {
  if (props.accessibility === undefined) return {};
  const { live, hidden } = resolvedAccessibility(props);
  const out: Pick<RootAttributes, 'aria-live' | 'aria-hidden' | 'inert'> = {};
  if (LIVE_VALUES.has(live)) out['aria-live'] = live as AccessibilityLive;
  if (typeof hidden === 'boolean') {
    out['aria-hidden'] = hidden;
    if (hidden) out.inert = INERT_ON;
  }
  return out;
}

/**
 * Root attributes of a component: `a2ui-<kind>` plus `extra` classes, `data-a2ui-id`, `weight`
 * as `flex: <weight> 1 0%` with the class `a2ui-weighted` (the stylesheet lets it shrink below
 * its content, except in a Row of weighted panes, which wraps instead), and the agent's
 * `live`/`hidden` ({@link accessibilityStateAttributes}).
 */
export function rootAttributes(id: string, props: CommonProps, className: string): RootAttributes {
  const weight = props.weight;
  const state = accessibilityStateAttributes(props);
  if (typeof weight === 'number' && Number.isFinite(weight) && weight >= 0) {
    return {
      className: `${className} a2ui-weighted`,
      'data-a2ui-id': id,
      style: { flex: `${weight} 1 0%` },
      ...state,
    };
  }
  return { className, 'data-a2ui-id': id, ...state };
}

/** Joins class names, skipping empty ones. */
export function classNames(...names: Array<string | false | undefined>): string {
  return names.filter(Boolean).join(' ');
}

/** A resolved value as display text (§7.5): `undefined`/`null` → `""`. */
export function text(value: unknown): string {
  return toDisplayString(value);
}

/** A resolved value as text, or `undefined` when empty. */
export function optionalText(value: unknown): string | undefined {
  const result = toDisplayString(value);
  return result === '' ? undefined : result;
}

/** Resolved `accessibility` of a component. */
export interface Accessibility {
  /** → `aria-label`. */
  readonly label: string | undefined;
  /** Description text, rendered by {@link Accessibility.descriptionElement}. */
  readonly description: string | undefined;
  /** Id to list in `aria-describedby` when there is a description. */
  readonly descriptionId: string | undefined;
  /** A visually hidden element holding the description (or `null`). */
  readonly descriptionElement: ReactNode;
}

/**
 * Core's rule for what a component announces (`resolveAccessibility`, v1.0 "Catalog-Agnostic
 * Accessibility Requirements"), so this renderer, other renderers and the conformance runner agree.
 */
function resolvedAccessibility(props: CommonProps): ResolvedAccessibility {
  return resolveAccessibility(props as Readonly<Record<string, unknown>>);
}

/**
 * `accessibility.label/description` → `aria-label` / `aria-describedby` material (§5.1), from
 * core's resolver. Only the agent's own label becomes `aria-label`: a label core inferred from the
 * component's visible text is what the component shows already, and repeating it would hide
 * the markup's own name (a heading's, a field's `<label>`) behind a copy.
 */
export function useAccessibility(props: CommonProps): Accessibility {
  const id = useId();
  const resolved = resolvedAccessibility(props);
  const label = resolved.labelInferred ? undefined : optionalText(resolved.label);
  const description = optionalText(resolved.description);
  const descriptionId = description ? `${id}-description` : undefined;
  return {
    label,
    description,
    descriptionId,
    descriptionElement: description ? (
      <span id={descriptionId} className="a2ui-sr-only">
        {description}
      </span>
    ) : null,
  };
}

/**
 * `role="group"` with the agent's label and description for a container the agent named; nothing
 * otherwise, since a generic `<div>` cannot carry a label and an unnamed group is noise.
 */
export function groupAttributes(a11y: Accessibility): {
  role?: 'group';
  'aria-label'?: string;
  'aria-describedby'?: string;
} {
  if (a11y.label === undefined && a11y.description === undefined) return {};
  return { role: 'group', 'aria-label': a11y.label, 'aria-describedby': a11y.descriptionId };
}

/** Space-separated ids for `aria-describedby`, or `undefined` when there are none. */
export function describedBy(...ids: Array<string | undefined>): string | undefined {
  const list = ids.filter(Boolean);
  return list.length > 0 ? list.join(' ') : undefined;
}

/**
 * The value of a two-way bound property (§7.6) and its setter. A `{path}` writes through to the
 * data model synchronously; a literal (or function call) has nothing to write to, so the input
 * keeps the user's edit locally and starts over when the agent sends a new literal.
 */
export function useTwoWayValue(
  node: A2uiNode,
  property: string,
  resolved: unknown,
): [unknown, (value: unknown) => void] {
  const bound = node.isBound(property);
  const [local, setLocal] = useState<{ source: unknown; value: unknown }>({
    source: resolved,
    value: resolved,
  });
  let current = local;
  if (!bound && !Object.is(local.source, resolved)) {
    current = { source: resolved, value: resolved };
    setLocal(current);
  }
  const setValue = useCallback(
    (value: unknown) => {
      if (node.isBound(property)) node.setValue(property, value);
      else setLocal((previous) => ({ source: previous.source, value }));
    },
    [node, property],
  );
  return [bound ? resolved : current.value, setValue];
}

/** True for a condition that is a `required` call, or an `and` of conditions one of which is. */
function requiresValue(condition: unknown, depth = 0): boolean {
  if (!isRecord(condition) || depth > 8) return false;
  if (condition.call === 'required') return true;
  if (condition.call !== 'and' || !isRecord(condition.args)) return false;
  const values = condition.args.values;
  return Array.isArray(values) && values.some((value) => requiresValue(value, depth + 1));
}

/**
 * True when one of `checks` (§8.4, either form) demands a value with the basic catalog's
 * `required` function: the input is marked required (visibly, and with `required`).
 */
export function hasRequiredCheck(checks: unknown): boolean {
  return (
    Array.isArray(checks) &&
    checks.some(
      (rule) => isRecord(rule) && (requiresValue(rule.condition) || rule.call === 'required'),
    )
  );
}

/** What an input shows for its checks. */
export interface FieldValidation {
  /** A check requires a value (`required`): the label is marked and the input `required`. */
  readonly required: boolean;
  /** The message shown (see {@link shownFailure}) when it should be shown (§8.4), else `undefined`. */
  readonly message: string | undefined;
  /** Severity of {@link message}: only `error` marks the input `aria-invalid`. */
  readonly severity: CheckFailure['severity'] | undefined;
  /** Id of the message element, for `aria-describedby`. */
  readonly messageId: string;
  /** Call on change and blur: from then on, messages show (validationDisplay `touched`). */
  readonly touch: () => void;
  /** The live region that shows the message; render it after the input. */
  readonly messageElement: ReactNode;
}

/**
 * The failure an input shows: its first error, else its first warning or info (v1.0
 * `ValidationResult.severity`), so a blocking problem is never hidden behind advice.
 */
export function shownFailure(validation: CheckResult): CheckFailure | undefined {
  const failures = validation.failures ?? [];
  return failures.find((failure) => failure.severity === 'error') ?? failures[0];
}

/**
 * The failing check an input shows ({@link shownFailure}), per the `validationDisplay` option:
 * always, or once the user touched the field or it holds a value. A warning or info message
 * carries its severity as a class and, for screen readers, as a visually hidden prefix.
 */
export function useFieldValidation(
  node: A2uiNode,
  validation: CheckResult,
  hasValue: boolean,
): FieldValidation {
  const id = useId();
  const [touched, setTouched] = useState(false);
  const show = node.validationDisplay === 'always' || touched || hasValue;
  const failure = show ? shownFailure(validation) : undefined;
  const severity = failure?.severity;
  const messageId = `${id}-message`;
  const touch = useCallback(() => setTouched(true), []);
  return {
    required: hasRequiredCheck(node.record.properties.checks),
    message: failure?.message,
    severity,
    messageId,
    touch,
    // Always present, so screen readers announce a message when it appears (polite live region).
    messageElement: (
      <div
        id={messageId}
        className={classNames(
          'a2ui-field-message',
          severity !== undefined && severity !== 'error' && `a2ui-field-message-${severity}`,
        )}
        data-a2ui-severity={severity}
        aria-live="polite"
      >
        {severity === 'warning' || severity === 'info' ? (
          <span className="a2ui-sr-only">{node.strings.checkSeverity(severity)}</span>
        ) : null}
        {failure?.message}
      </div>
    ),
  };
}

/** `calendarToday` / `due-date_input` → "calendar today" / "due date input". */
export function humanize(name: string): string {
  return name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
}

/** The label of an input: what to show, and whether to show it only to assistive technology. */
export interface FieldLabel {
  readonly text: string;
  /** True when the agent gave no visible label: the text is for screen readers only. */
  readonly hidden: boolean;
}

/**
 * Every input is labelled: the visible `label`, else `accessibility.label`, else the humanized
 * component id — the last two visually hidden, so an intentionally label-less checkbox (example
 * 07) keeps its look and still has a name.
 */
export function fieldLabel(
  label: unknown,
  accessibilityLabel: string | undefined,
  id: string,
): FieldLabel {
  const visible = text(label).trim();
  if (visible !== '') return { text: visible, hidden: false };
  return { text: accessibilityLabel ?? humanize(id), hidden: true };
}

/** Root attributes of a labelled input: `a2ui-field`, its own class, and the invalid state. */
export function fieldRootAttributes(
  id: string,
  props: CommonProps,
  className: string,
  field: FieldValidation,
): RootAttributes {
  return rootAttributes(
    id,
    props,
    classNames('a2ui-field', className, field.severity === 'error' && 'a2ui-field-invalid'),
  );
}

/** The mark after the label of a required input (the input's `required` says it to screen readers). */
export function RequiredMark({ required }: { required: boolean }) {
  return required ? (
    <span className="a2ui-required-mark" aria-hidden="true">
      {' *'}
    </span>
  ) : null;
}

/**
 * The `<label>` of an input: visible (with a `*` when required), or for screen readers only
 * when the agent gave none.
 */
export function FieldLabelElement({
  label,
  htmlFor,
  required = false,
}: {
  label: FieldLabel;
  htmlFor: string;
  required?: boolean;
}) {
  const element = (
    <label className={label.hidden ? 'a2ui-sr-only' : 'a2ui-field-label'} htmlFor={htmlFor}>
      {label.text}
    </label>
  );
  // The mark stays outside the <label>, so the label's text (and the input's name) is exactly
  // the agent's label; `required` on the input tells assistive technology.
  return required && !label.hidden ? (
    <span className="a2ui-field-label-line">
      {element}
      <RequiredMark required />
    </span>
  ) : (
    element
  );
}

/**
 * The ARIA wiring every labelled input shares: the accessibility label when the visible one is
 * the agent's, `aria-invalid` and `aria-describedby` pointing at the first failing check and the
 * accessibility description, and `touch` on blur.
 */
export function fieldInputAttributes(
  label: FieldLabel,
  accessibility: { readonly label: string | undefined; readonly descriptionId: string | undefined },
  field: FieldValidation,
) {
  return {
    'aria-label': label.hidden ? undefined : accessibility.label,
    'aria-invalid': field.severity === 'error' ? true : undefined,
    // Native `required` (announced as "required"; no form, so the browser never blocks a submit).
    required: field.required ? true : undefined,
    'aria-describedby': describedBy(
      field.message ? field.messageId : undefined,
      accessibility.descriptionId,
    ),
    onBlur: field.touch,
  } as const;
}

/** True for a value a user would call "filled in". */
export function hasContent(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (typeof value === 'string') return value !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}
