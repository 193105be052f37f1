/**
 * The contract between the renderer and a component implementation, built in or custom.
 */
import type {
  A2uiClient,
  CheckResult,
  ChildReference,
  ComponentRecord,
  DataContext,
  Surface,
} from '@a2ui-ts/core';
import type { ComponentType, ReactNode } from 'react';
import type { RendererStrings } from '../strings/renderer-strings.js';

/** `accessibility` after resolution (§6 `AccessibilityAttributes`). */
export interface ResolvedAccessibility {
  /** → `aria-label` (or a visually hidden label) on the component's main element. */
  readonly label?: unknown;
  /** → `aria-describedby` pointing at a visually hidden description. */
  readonly description?: unknown;
  /** v1.0: `off` | `polite` | `assertive` → `aria-live` on the component's outermost element. */
  readonly live?: unknown;
  /** v1.0, a resolved DynamicBoolean: `true` → `aria-hidden="true"` (and `inert`) on it. */
  readonly hidden?: unknown;
}

/** Properties every component accepts (§5.1), after resolution. */
export interface CommonProps {
  readonly accessibility?: ResolvedAccessibility;
  /** `flex-grow` inside a Row or Column (§9). */
  readonly weight?: unknown;
}

/**
 * A resolved ChildList: the ids of a static list as sent, or one {@link ChildReference} per item
 * of a template (§5.2, §7.4). Pass it to {@link A2uiNode.renderChildren}.
 */
export type ChildListValue = readonly string[] | readonly ChildReference[];

/** A severity-free error a component reports to the agent (sent once, rate-limited). */
export interface ComponentErrorReport {
  /** Spec error code, e.g. `URL_BLOCKED`, `EXPRESSION_ERROR`. */
  readonly code: string;
  readonly message: string;
  /** JSON Pointer, when there is one. */
  readonly path?: string;
}

/**
 * The renderer-side handle of one component instance. Stable for the instance's lifetime (until
 * its properties are replaced by `updateComponents`).
 */
export interface A2uiNode {
  readonly client: A2uiClient;
  readonly surface: Surface;
  /** The component as the agent sent it (unresolved). */
  readonly record: ComponentRecord;
  /** Absolute JSON Pointer of the instance's data scope: `/` or a template item such as `/items/3`. */
  readonly scope: string;
  /** Resolves and writes values in {@link scope}. */
  readonly dataContext: DataContext;
  readonly strings: RendererStrings;
  /** When inputs show their first failing check (the `validationDisplay` option). */
  readonly validationDisplay: 'touched' | 'always';
  /** Renders the component `id` in this scope; `null` for anything but a non-empty string. */
  renderChild(id: unknown): ReactNode;
  /** Renders a resolved ChildList (static ids or template items) with stable keys. */
  renderChildren(children: unknown): ReactNode[];
  /** True when `property` is a `{path}` binding, i.e. {@link setValue} writes somewhere (§7.6). */
  isBound(property: string): boolean;
  /**
   * Two-way binding (§7.6): writes `value` synchronously to the path `property` is bound to,
   * resolved in this scope. A literal or function-call property has nothing to write to: no-op.
   * Data-model errors (a write through a primitive, a limit) are reported to the agent.
   */
  setValue(property: string, value: unknown): void;
  /**
   * Runs the Action in `property` as a user gesture (§8.5): resolves its context in this scope
   * and sends it, or runs its local function call. Refused while a check fails.
   * @param property - @default 'action'
   * @returns true when it ran or was sent; failures go to the `onActionError` option
   */
  dispatchAction(property?: string): Promise<boolean>;
  /**
   * Passes an agent-supplied URL through the client's URL policy. A refused URL gives
   * `undefined` and is reported to the agent once as `URL_BLOCKED`.
   */
  sanitizeUrl(url: unknown, property?: string): string | undefined;
  /** Reports a problem to the agent through the client (de-duplicated per surface). */
  reportError(error: ComponentErrorReport): void;
}

/**
 * Props every component implementation receives.
 *
 * @typeParam P - the component's own properties after resolution (literals, bound values and
 *   function results; actions unresolved; ChildList templates as {@link ChildListValue}).
 *   Values come from the agent: treat them as `unknown` until checked.
 *
 * @example
 * ```tsx
 * function Badge({ props, node }: A2uiComponentProps<{ text?: string }>) {
 *   return <span className="badge">{String(props.text ?? '')}</span>;
 * }
 * ```
 */
export interface A2uiComponentProps<P extends object = Record<string, unknown>> {
  /** Component id (§5.1); not unique on the page when the component is a template. */
  readonly id: string;
  /** Component type (`component` in the message). */
  readonly type: string;
  /** Resolved properties, see the type parameter. */
  readonly props: Readonly<P> & CommonProps;
  /** Result of the component's `checks` (§8.4). */
  readonly validation: CheckResult;
  readonly node: A2uiNode;
}

/** A React component that renders one A2UI component type. */
// biome-ignore lint/suspicious/noExplicitAny: implementations declare their own prop shapes; the registry stores them side by side.
export type A2uiComponent<P extends object = any> = ComponentType<A2uiComponentProps<P>>;
