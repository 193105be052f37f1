/**
 * Heading levels under the renderer's `minHeadingLevel`: a host page keeps its own `<h1>` (and
 * the levels above its surfaces) when an agent's Text is `h1` or its markdown has `# Title`.
 */
import { A2uiError } from '@a2ui-ts/core';
import { useContext } from 'react';
import { ClientContext, SurfaceContext } from '../provider/renderer-context.js';

/** Default of the `minHeadingLevel` option: agent headings keep their level. */
export const DEFAULT_MIN_HEADING_LEVEL = 1;

/** The heading elements HTML has. */
export type HeadingTag = 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6';

/**
 * The element of an agent heading of `level` (1 = `h1`) when the highest level a surface may use
 * is `minHeadingLevel`: shifted down by `minHeadingLevel − 1`, kept at `h6` past it (HTML has no
 * deeper heading element).
 */
export function headingTag(level: number, minHeadingLevel: number): HeadingTag {
  return `h${Math.min(6, Math.max(1, level) + minHeadingLevel - 1)}` as HeadingTag;
}

/**
 * Checks a `minHeadingLevel` option.
 * @throws A2uiError `VALIDATION_FAILED` (`data: { reason: 'option', option: 'minHeadingLevel' }`)
 * unless `value` is an integer from 1 to 6
 */
export function checkMinHeadingLevel(value: number): number {
  if (Number.isInteger(value) && value >= 1 && value <= 6) return value;
  throw new A2uiError(
    'VALIDATION_FAILED',
    `minHeadingLevel must be an integer from 1 to 6 (got ${String(value)}).`,
    { data: { reason: 'option', option: 'minHeadingLevel' } },
  );
}

/** The enclosing renderer's `minHeadingLevel`, or 1 outside one. */
export function useMinHeadingLevel(): number {
  const runtime = useContext(SurfaceContext);
  const client = useContext(ClientContext);
  return (runtime?.options ?? client?.options)?.minHeadingLevel ?? DEFAULT_MIN_HEADING_LEVEL;
}
