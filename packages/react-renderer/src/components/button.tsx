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
 * A native `<button type="button">`. While checks fail it is disabled and their messages show
 * beneath it (a muted caption), as its accessible description too, so everyone sees why.
 */
export function Button({ id, props, validation, node }: A2uiComponentProps<ButtonProps>) {
  const a11y = useAccessibility(props);
  const reasonId = useId();
  const variant =
    typeof props.variant === 'string' && VARIANTS.has(props.variant) ? props.variant : 'default';
  const reasons = validation.isValid ? [] : validation.messages;
  return (
    <span {...rootAttributes(id, props, 'a2ui-button-host')}>
      <button
        className={classNames('a2ui-button', `a2ui-button-${variant}`)}
        type="button"
        disabled={!validation.isValid}
        aria-label={a11y.label}
        aria-describedby={describedBy(
          a11y.descriptionId,
          reasons.length > 0 ? reasonId : undefined,
        )}
        onClick={() => {
          void node.dispatchAction('action');
        }}
      >
        {node.renderChild(props.child)}
        {a11y.descriptionElement}
      </button>
      {reasons.length > 0 ? (
        <span id={reasonId} className="a2ui-button-reason">
          {reasons.map((reason, index) => (
            // Messages may repeat; their order is stable.
            // biome-ignore lint/suspicious/noArrayIndexKey: position is the identity here.
            <span key={index}>{reason}</span>
          ))}
        </span>
      ) : null}
    </span>
  );
}
