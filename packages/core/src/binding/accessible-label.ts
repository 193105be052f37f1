/**
 * Default accessibility semantics inferred from visible text (v1.0 `a2ui_protocol.md`
 * "Catalog-Agnostic Accessibility Requirements", "Infer Default Semantics"): a component without
 * an explicit `accessibility.label` is announced by the visible text it shows. Explicit attributes
 * always win. One rule in core, so that every renderer and the conformance runner agree.
 */
import { isRecord } from '../protocol/guards.js';

/**
 * Catalog-agnostic properties that carry a component's visible text label, in order of
 * preference: an input's `label`, a titled control's `title`, a text's `text`.
 */
export const VISIBLE_LABEL_PROPERTIES: readonly string[] = Object.freeze([
  'label',
  'title',
  'text',
]);

/** Resolved accessibility of a component: what assistive technologies announce. */
export interface ResolvedAccessibility {
  /** The explicit `accessibility.label`, else the inferred visible label; absent when neither. */
  readonly label?: string;
  /** The explicit `accessibility.description`. */
  readonly description?: string;
  /** v1.0 `accessibility.live` (`off` | `polite` | `assertive`), as sent. */
  readonly live?: unknown;
  /** v1.0 `accessibility.hidden`, resolved. */
  readonly hidden?: unknown;
  /** True when `label` was inferred from visible text rather than set by the agent. */
  readonly labelInferred: boolean;
}

/**
 * The visible text label of a component: the first of {@link VISIBLE_LABEL_PROPERTIES} that is a
 * non-blank string (numbers, as `Text` may show, are read as text).
 *
 * @param props - the component's properties, already resolved (no `{path}`/`{call}` left)
 * @returns the label, or `undefined` when the component shows no text of its own
 */
export function inferAccessibleLabel(props: Readonly<Record<string, unknown>>): string | undefined {
  for (const key of VISIBLE_LABEL_PROPERTIES) {
    const text = asText(props[key]);
    if (text !== undefined && text.trim() !== '') return text;
  }
  return undefined;
}

/** A string as it is, a number (a `{path}` bound to a count) as text; anything else nothing. */
function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return typeof value === 'number' ? String(value) : undefined;
}

/**
 * A component's accessibility: its resolved `accessibility` attributes, with `label` inferred
 * from visible text when the agent set none (an explicit label, even an empty one, wins). Label
 * and description are text; a number (a binding to a count) is read as text.
 *
 * @param props - the component's properties, already resolved
 * @returns the attributes to map onto the platform's accessibility API
 * @example
 * ```ts
 * resolveAccessibility({ component: 'Button', title: 'Submit' }).label; // 'Submit'
 * resolveAccessibility({ title: 'Submit', accessibility: { label: 'Send Form' } }).label; // 'Send Form'
 * ```
 */
export function resolveAccessibility(
  props: Readonly<Record<string, unknown>>,
): ResolvedAccessibility {
  const explicit = isRecord(props.accessibility) ? props.accessibility : {};
  const out: { -readonly [K in keyof ResolvedAccessibility]: ResolvedAccessibility[K] } = {
    labelInferred: false,
  };
  const label = asText(explicit.label);
  if (label !== undefined) out.label = label;
  else {
    const inferred = inferAccessibleLabel(props);
    if (inferred !== undefined) {
      out.label = inferred;
      out.labelInferred = true;
    }
  }
  const description = asText(explicit.description);
  if (description !== undefined) out.description = description;
  if (explicit.live !== undefined) out.live = explicit.live;
  if (explicit.hidden !== undefined) out.hidden = explicit.hidden;
  return out;
}
