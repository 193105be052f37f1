/**
 * Text (§9): markdown without HTML, images or links, in one of seven variants (v0.9) or of two
 * (v1.0: `caption` and `body`; a v1.0 surface never gets `h1`–`h5`).
 */
import { createElement } from 'react';
import { useMarkdownParser } from '../markdown/markdown-parser.js';
import {
  markdownContent,
  needsParser,
  prepareMarkdown,
  useMarkdownLimits,
} from '../markdown/markdown-text.js';
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import { headingTag, useMinHeadingLevel } from '../renderer/heading-level.js';
import { isV1Surface } from '../renderer/surface-version.js';
import {
  classNames,
  describedBy,
  rootAttributes,
  text,
  useAccessibility,
} from './component-helpers.js';

/** Resolved props of Text. */
export interface TextProps {
  /** Markdown; any resolved value is shown as text (§7.5). */
  readonly text?: unknown;
  /** @default 'body'; `h1`–`h5` are v0.9 only (a v1.0 surface shows them as `body`). */
  readonly variant?: 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'caption' | 'body';
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5']);

/**
 * Headings render as real `<h1>`–`<h6>` (not markdown `#` prefixes), so the page outline is right:
 * the renderer's `minHeadingLevel` shifts them below the host page's own headings, the look
 * (`a2ui-text-hn`) staying the agent's;
 * `caption` is smaller and muted. Block markdown (lists, paragraphs) renders in a `<div>`, a
 * single line in a `<span>` so a Text inside a Button stays valid HTML.
 */
export function Text({ id, props, node }: A2uiComponentProps<TextProps>) {
  const a11y = useAccessibility(props);
  const limits = useMarkdownLimits();
  const minHeadingLevel = useMinHeadingLevel();
  const source = text(props.text);
  const headings = !isV1Surface(node.surface);
  const variant =
    typeof props.variant === 'string' &&
    ((headings && HEADINGS.has(props.variant)) || props.variant === 'caption')
      ? props.variant
      : 'body';
  const attributes = rootAttributes(id, props, classNames('a2ui-text', `a2ui-text-${variant}`));
  // Prepared once, rendered in place: most labels are plain and need no parser and no extra fiber.
  const prepared = prepareMarkdown(source, limits);
  const parser = useMarkdownParser(needsParser(prepared));
  if (HEADINGS.has(variant)) {
    return createElement(
      headingTag(Number(variant.slice(1)), minHeadingLevel),
      {
        ...attributes,
        'aria-label': a11y.label,
        'aria-describedby': describedBy(a11y.descriptionId),
      },
      markdownContent(source, prepared, true, minHeadingLevel, parser),
      a11y.descriptionElement,
    );
  }
  const inline = prepared.mode !== 'block';
  const content = markdownContent(source, prepared, false, minHeadingLevel, parser);
  // A paragraph cannot carry aria-label: give assistive technology the label, hide the visual text.
  return createElement(
    inline ? 'span' : 'div',
    { ...attributes, 'aria-describedby': describedBy(a11y.descriptionId) },
    a11y.label ? (
      <>
        <span className="a2ui-sr-only">{a11y.label}</span>
        <span aria-hidden="true">{content}</span>
      </>
    ) : (
      content
    ),
    a11y.descriptionElement,
  );
}
