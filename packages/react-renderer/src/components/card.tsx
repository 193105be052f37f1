/**
 * Card (§9): one child on a padded, rounded, outlined surface.
 */
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import { groupAttributes, rootAttributes, useAccessibility } from './component-helpers.js';

/** Resolved props of Card. */
export interface CardProps {
  /** Component id of the single child. */
  readonly child?: unknown;
}

/** A card; a labelled card is a `group` so its label is announced on entry. */
export function Card({ id, props, node }: A2uiComponentProps<CardProps>) {
  const a11y = useAccessibility(props);
  return (
    <div {...rootAttributes(id, props, 'a2ui-card')} {...groupAttributes(a11y)}>
      {node.renderChild(props.child)}
      {a11y.descriptionElement}
    </div>
  );
}
