/**
 * Row and Column (§9): flex containers with `justify` (main axis) and `align` (cross axis).
 */
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import {
  classNames,
  groupAttributes,
  rootAttributes,
  useAccessibility,
} from './component-helpers.js';

/** Resolved props of Row and Column. */
export interface FlexProps {
  /** Static ids or template items (§5.2). */
  readonly children?: unknown;
  /** @default 'start' */
  readonly justify?:
    | 'start'
    | 'center'
    | 'end'
    | 'spaceBetween'
    | 'spaceAround'
    | 'spaceEvenly'
    | 'stretch';
  /** @default 'stretch' */
  readonly align?: 'start' | 'center' | 'end' | 'stretch';
}

const JUSTIFY = new Set([
  'start',
  'center',
  'end',
  'spaceBetween',
  'spaceAround',
  'spaceEvenly',
  'stretch',
]);
const ALIGN = new Set(['start', 'center', 'end', 'stretch']);

/** `a2ui-justify-*` / `a2ui-align-*` classes; unknown values fall back to the defaults. */
export function flexClasses(props: FlexProps): string {
  const justify =
    typeof props.justify === 'string' && JUSTIFY.has(props.justify) ? props.justify : 'start';
  const align = typeof props.align === 'string' && ALIGN.has(props.align) ? props.align : 'stretch';
  return `a2ui-justify-${justify} a2ui-align-${align}`;
}

function FlexContainer({
  id,
  props,
  node,
  direction,
}: A2uiComponentProps<FlexProps> & { direction: 'row' | 'column' }) {
  const a11y = useAccessibility(props);
  // An invisible container only becomes a group when the agent names it.
  return (
    <div
      {...rootAttributes(id, props, classNames(`a2ui-${direction}`, flexClasses(props)))}
      {...groupAttributes(a11y)}
    >
      {node.renderChildren(props.children)}
      {a11y.descriptionElement}
    </div>
  );
}

/** Lays children out horizontally; children with `weight` share the free space. */
export function Row(props: A2uiComponentProps<FlexProps>) {
  return <FlexContainer {...props} direction="row" />;
}

/** Lays children out vertically; children with `weight` share the free space. */
export function Column(props: A2uiComponentProps<FlexProps>) {
  return <FlexContainer {...props} direction="column" />;
}
