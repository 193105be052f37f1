/**
 * Tabs (§9): the WAI-ARIA tabs pattern — a tablist with roving tabindex, arrow keys, Home/End,
 * and one tabpanel holding the selected child (local state, first tab by default).
 */
import { isRecord } from '@a2ui-ts/core';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import { describedBy, rootAttributes, text, useAccessibility } from './component-helpers.js';

/** One resolved tab. */
export interface TabItem {
  readonly title?: unknown;
  /** Component id shown when the tab is selected. */
  readonly child?: unknown;
}

/** Resolved props of Tabs. */
export interface TabsProps {
  readonly tabs?: unknown;
}

/**
 * Selection follows focus (automatic activation): ←/→ move to the previous/next tab and wrap,
 * Home/End jump to the first/last. Only the selected tab is in the tab order.
 */
export function Tabs({ id, props, node }: A2uiComponentProps<TabsProps>) {
  const a11y = useAccessibility(props);
  const baseId = useId();
  const tabs: TabItem[] = Array.isArray(props.tabs) ? props.tabs.filter(isRecord) : [];
  const [selected, setSelected] = useState(0);
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  // The agent may shorten the list; keep the selection on an existing tab.
  const index = Math.min(selected, Math.max(0, tabs.length - 1));
  const tabId = (position: number) => `${baseId}-tab-${position}`;
  const panelId = `${baseId}-panel`;

  const select = (position: number) => {
    setSelected(position);
    buttons.current[position]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (tabs.length === 0) return;
    const last = tabs.length - 1;
    let next: number | undefined;
    if (event.key === 'ArrowRight') next = index === last ? 0 : index + 1;
    else if (event.key === 'ArrowLeft') next = index === 0 ? last : index - 1;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = last;
    if (next === undefined) return;
    event.preventDefault();
    select(next);
  };

  return (
    <div {...rootAttributes(id, props, 'a2ui-tabs')}>
      <div
        className="a2ui-tab-list"
        role="tablist"
        aria-orientation="horizontal"
        aria-label={a11y.label}
        aria-describedby={describedBy(a11y.descriptionId)}
        onKeyDown={onKeyDown}
      >
        {tabs.map((tab, position) => (
          <button
            // Tabs have no ids of their own; their position is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            key={position}
            ref={(element) => {
              buttons.current[position] = element;
            }}
            type="button"
            role="tab"
            id={tabId(position)}
            className="a2ui-tab"
            aria-selected={position === index}
            aria-controls={position === index ? panelId : undefined}
            tabIndex={position === index ? 0 : -1}
            onClick={() => select(position)}
          >
            {text(tab.title)}
          </button>
        ))}
      </div>
      {tabs.length > 0 ? (
        <div
          className="a2ui-tab-panel"
          role="tabpanel"
          id={panelId}
          aria-labelledby={tabId(index)}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: WAI-ARIA tabs: the panel takes focus so Tab reaches a panel without focusable content.
          tabIndex={0}
        >
          {node.renderChild(tabs[index]?.child)}
        </div>
      ) : null}
      {a11y.descriptionElement}
    </div>
  );
}
