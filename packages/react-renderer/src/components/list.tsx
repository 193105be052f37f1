/**
 * List (§9): a scrollable list of static or templated children (§7.4).
 */
import { isValidElement, type ReactNode } from 'react';
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import { classNames, describedBy, rootAttributes, useAccessibility } from './component-helpers.js';

/** Resolved props of List. */
export interface ListProps {
  readonly children?: unknown;
  /** @default 'vertical' */
  readonly direction?: 'vertical' | 'horizontal';
  /** @default 'stretch' */
  readonly align?: 'start' | 'center' | 'end' | 'stretch';
}

const ALIGN = new Set(['start', 'center', 'end', 'stretch']);

/**
 * A `<ul role="list">` (the role survives `list-style: none` in Safari) with one `<li>` per child,
 * so assistive technology announces the item count. A horizontal list scrolls and is focusable,
 * so keyboard users can scroll it too.
 */
export function List({ id, props, node }: A2uiComponentProps<ListProps>) {
  const a11y = useAccessibility(props);
  const horizontal = props.direction === 'horizontal';
  const align = typeof props.align === 'string' && ALIGN.has(props.align) ? props.align : 'stretch';
  const items = node.renderChildren(props.children).map((child: ReactNode) => (
    <li key={isValidElement(child) ? child.key : undefined} className="a2ui-list-item">
      {child}
    </li>
  ));
  return (
    <>
      <ul
        {...rootAttributes(
          id,
          props,
          classNames(
            'a2ui-list',
            horizontal ? 'a2ui-list-horizontal' : 'a2ui-list-vertical',
            `a2ui-align-${align}`,
          ),
        )}
        // biome-ignore lint/a11y/noRedundantRoles: Safari drops the list role of a ul styled with list-style: none.
        role="list"
        aria-label={a11y.label}
        aria-describedby={describedBy(a11y.descriptionId)}
        tabIndex={horizontal ? 0 : undefined}
      >
        {items}
      </ul>
      {a11y.descriptionElement}
    </>
  );
}
