/**
 * Icon (§9): one of the 59 basic names, any name a binding resolves to, or `{svgPath}`; drawn
 * from bundled SVG paths, never fetched.
 */
import { isRecord } from '@a2ui-ts/core';
import { MISSING_ICON_PATH, resolveIconPath } from '../icons/icon-paths.js';
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import {
  classNames,
  describedBy,
  humanize,
  rootAttributes,
  useAccessibility,
} from './component-helpers.js';

/** Resolved props of Icon. */
export interface IconProps {
  /** A name such as `"calendarToday"`, or `{svgPath}` with path data for a 24×24 viewBox. */
  readonly name?: unknown;
}

/** SVG path data: commands, numbers, separators. Anything else is not drawn. */
const PATH_DATA = /^[MmLlHhVvCcSsQqTtAaZz0-9eE+\-.,\s]{1,20000}$/;

/**
 * An inline SVG in `currentColor`. Named icons are announced by `accessibility.label` or their
 * humanized name; a custom `svgPath` without a label is decorative (`aria-hidden`).
 */
export function Icon({ id, props }: A2uiComponentProps<IconProps>) {
  const a11y = useAccessibility(props);
  const name = props.name;
  let path: string | undefined;
  let label = a11y.label;
  let missing = false;
  if (typeof name === 'string') {
    path = resolveIconPath(name);
    missing = path === undefined;
    label ??= humanize(name) || undefined;
  } else if (isRecord(name) && typeof name.svgPath === 'string' && PATH_DATA.test(name.svgPath)) {
    path = name.svgPath;
  } else {
    missing = true;
  }
  const attributes = rootAttributes(
    id,
    props,
    classNames('a2ui-icon', missing && 'a2ui-icon-missing'),
  );
  return (
    <>
      <svg
        {...attributes}
        viewBox="0 0 24 24"
        role={label ? 'img' : undefined}
        aria-label={label}
        // The agent's `hidden` (v1.0) wins over the inferred "decorative when unnamed".
        aria-hidden={attributes['aria-hidden'] ?? (label ? undefined : true)}
        aria-describedby={describedBy(a11y.descriptionId)}
        focusable="false"
      >
        <path d={path ?? MISSING_ICON_PATH} fill="currentColor" />
      </svg>
      {a11y.descriptionElement}
    </>
  );
}
