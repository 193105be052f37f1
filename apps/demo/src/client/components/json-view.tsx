/**
 * Pretty-printed JSON with light syntax colouring (no HTML from the data ever reaches the DOM:
 * every token is a text node).
 */
import { Fragment, type ReactNode } from 'react';

const TOKEN =
  /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

function highlight(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const index = match.index ?? 0;
    if (index > last) parts.push(text.slice(last, index));
    const [whole, string, colon, literal, number] = match;
    const className =
      string !== undefined
        ? colon
          ? 'json-key'
          : 'json-string'
        : literal !== undefined
          ? 'json-literal'
          : number !== undefined
            ? 'json-number'
            : undefined;
    parts.push(
      <span key={index} className={className}>
        {string ?? whole}
      </span>,
    );
    if (colon) parts.push(<Fragment key={`${index}:`}>{colon}</Fragment>);
    last = index + whole.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** Props of {@link JsonView}. */
export interface JsonViewProps {
  value: unknown;
  /** What the block shows (its tooltip). */
  label?: string;
}

/** Renders `value` as indented JSON. */
export function JsonView({ value, label }: JsonViewProps) {
  const text = value === undefined ? 'undefined' : JSON.stringify(value, null, 2);
  return (
    // Focusable: it scrolls (long lines, long messages), and keyboard users must reach that too.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs focus to scroll by keyboard (axe scrollable-region-focusable).
    <pre className="json-view" title={label} tabIndex={0}>
      <code>{highlight(text)}</code>
    </pre>
  );
}
