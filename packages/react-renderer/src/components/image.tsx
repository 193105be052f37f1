/**
 * Image (§9): `fit` → `object-fit`, `variant` → size and shape. The URL passes the client's URL
 * policy first (ag-ui-protocol/ag-ui#2527).
 */
import { useState } from 'react';
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import {
  classNames,
  describedBy,
  optionalText,
  rootAttributes,
  useAccessibility,
} from './component-helpers.js';

/** Resolved props of Image. */
export interface ImageProps {
  readonly url?: unknown;
  /** Alternative text. */
  readonly description?: unknown;
  /** @default 'fill' (`cover` for the avatar and header variants) */
  readonly fit?: 'contain' | 'cover' | 'fill' | 'none' | 'scaleDown';
  /** @default 'mediumFeature' */
  readonly variant?:
    | 'icon'
    | 'avatar'
    | 'smallFeature'
    | 'mediumFeature'
    | 'largeFeature'
    | 'header';
}

const FITS: Record<string, string> = {
  contain: 'contain',
  cover: 'cover',
  fill: 'fill',
  none: 'none',
  scaleDown: 'scale-down',
};
const VARIANTS = new Set([
  'icon',
  'avatar',
  'smallFeature',
  'mediumFeature',
  'largeFeature',
  'header',
]);

/**
 * `<img>` with `alt` from `accessibility.label` or `description` (empty = decorative), lazy
 * loading and no referrer. A refused URL, or one that fails to load, renders a placeholder box of
 * the same size showing the description (or a short note), so the gap is never silent.
 */
export function Image({ id, props, node }: A2uiComponentProps<ImageProps>) {
  const a11y = useAccessibility(props);
  const src = node.sanitizeUrl(props.url);
  const [failedSrc, setFailedSrc] = useState<string>();
  const variant =
    typeof props.variant === 'string' && VARIANTS.has(props.variant)
      ? props.variant
      : 'mediumFeature';
  // The schema default `fill` distorts photos; avatars and headers crop instead unless told otherwise.
  const fit =
    (typeof props.fit === 'string' && FITS[props.fit]) ||
    (variant === 'avatar' || variant === 'header' ? 'cover' : 'fill');
  const alt = a11y.label ?? optionalText(props.description) ?? '';
  const failed = src !== undefined && failedSrc === src;
  if (!src || failed) {
    const note = alt || (failed ? node.strings.imageFailed : node.strings.blockedMedia);
    const attributes = rootAttributes(
      id,
      props,
      classNames(
        'a2ui-image',
        `a2ui-image-${variant}`,
        failed ? 'a2ui-media-failed' : 'a2ui-media-blocked',
      ),
    );
    // Icons and avatars are too small for words: the note is their accessible name only.
    const roomForText = variant !== 'icon' && variant !== 'avatar';
    return (
      <span
        {...attributes}
        role="img"
        aria-label={note}
        aria-describedby={describedBy(a11y.descriptionId)}
      >
        {roomForText ? (
          <span className="a2ui-media-note" aria-hidden="true">
            {note}
          </span>
        ) : null}
        {a11y.descriptionElement}
      </span>
    );
  }
  const attributes = rootAttributes(id, props, classNames('a2ui-image', `a2ui-image-${variant}`));
  return (
    <>
      <img
        {...attributes}
        style={{ ...attributes.style, objectFit: fit as 'fill' }}
        src={src}
        alt={alt}
        aria-describedby={describedBy(a11y.descriptionId)}
        loading="lazy"
        decoding="async"
        referrerPolicy="no-referrer"
        onError={() => setFailedSrc(src)}
      />
      {a11y.descriptionElement}
    </>
  );
}
