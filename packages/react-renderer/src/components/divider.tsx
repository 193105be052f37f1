/**
 * Divider (§9): a 1-pixel rule along `axis`.
 */
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import { describedBy, rootAttributes, useAccessibility } from './component-helpers.js';

/** Resolved props of Divider. */
export interface DividerProps {
  /** @default 'horizontal' */
  readonly axis?: 'horizontal' | 'vertical';
}

/**
 * An `<hr>` (implicitly a separator); a vertical one says so with `aria-orientation`. A separator
 * may be named, so the agent's label and description apply (the description beside it, since an
 * `<hr>` has no content).
 */
export function Divider({ id, props }: A2uiComponentProps<DividerProps>) {
  const a11y = useAccessibility(props);
  const vertical = props.axis === 'vertical';
  return (
    <>
      <hr
        {...rootAttributes(
          id,
          props,
          `a2ui-divider a2ui-divider-${vertical ? 'vertical' : 'horizontal'}`,
        )}
        aria-orientation={vertical ? 'vertical' : undefined}
        aria-label={a11y.label}
        aria-describedby={describedBy(a11y.descriptionId)}
      />
      {a11y.descriptionElement}
    </>
  );
}
