/**
 * Divider (§9): a 1-pixel rule along `axis`.
 */
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import { rootAttributes } from './component-helpers.js';

/** Resolved props of Divider. */
export interface DividerProps {
  /** @default 'horizontal' */
  readonly axis?: 'horizontal' | 'vertical';
}

/** `<hr>` (implicitly a horizontal separator), or a vertical `separator` inside a Row. */
export function Divider({ id, props }: A2uiComponentProps<DividerProps>) {
  if (props.axis === 'vertical') {
    return (
      <div
        {...rootAttributes(id, props, 'a2ui-divider a2ui-divider-vertical')}
        role="separator"
        aria-orientation="vertical"
      />
    );
  }
  return <hr {...rootAttributes(id, props, 'a2ui-divider a2ui-divider-horizontal')} />;
}
