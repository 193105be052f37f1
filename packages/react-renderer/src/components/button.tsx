/**
 * Button (§9): renders its child, runs its action on click (§8.5), and is disabled while any of
 * its checks fails (§8.4).
 */
import { useId } from 'react';
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import { classNames, describedBy, rootAttributes, useAccessibility } from './component-helpers.js';

/** Resolved props of Button. */
export interface ButtonProps {
  /** Component id of the label (usually a Text, or an Icon for icon-only buttons). */
  readonly child?: unknown;
  /** @default 'default' */
  readonly variant?: 'default' | 'primary' | 'borderless';
  /** The Action, unresolved: its context resolves at click time. */
  readonly action?: unknown;
}

const VARIANTS = new Set(['default', 'primary', 'borderless']);

/**
 * A native `<button type="button">`. While disabled by a check, the check's message is its
 * accessible description, so a screen reader says why.
 */
export function Button({ id, props, validation, node }: A2uiComponentProps<ButtonProps>) {
  const a11y = useAccessibility(props);
  const reasonId = useId();
  const variant =
    typeof props.variant === 'string' && VARIANTS.has(props.variant) ? props.variant : 'default';
  const reason = validation.isValid ? undefined : validation.messages[0];
  return (
    <button
      {...rootAttributes(id, props, classNames('a2ui-button', `a2ui-button-${variant}`))}
      type="button"
      disabled={!validation.isValid}
      aria-label={a11y.label}
      aria-describedby={describedBy(a11y.descriptionId, reason ? reasonId : undefined)}
      onClick={() => {
        void node.dispatchAction('action');
      }}
    >
      {node.renderChild(props.child)}
      {a11y.descriptionElement}
      {reason ? (
        <span id={reasonId} hidden>
          {reason}
        </span>
      ) : null}
    </button>
  );
}
