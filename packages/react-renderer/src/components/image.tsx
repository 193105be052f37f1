/**
 * Image (§9): `fit` → `object-fit`, `variant` → size and shape. The URL passes the client's URL
 * policy first (ag-ui-protocol/ag-ui#2527).
 */
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
 * loading and no referrer. A refused URL renders an empty, labelled box instead.
 */
export function Image({ id, props, node }: A2uiComponentProps<ImageProps>) {
  const a11y = useAccessibility(props);
  const src = node.sanitizeUrl(props.url);
  const variant =
    typeof props.variant === 'string' && VARIANTS.has(props.variant)
      ? props.variant
      : 'mediumFeature';
  // The schema default `fill` distorts photos; avatars and headers crop instead unless told otherwise.
  const fit =
    (typeof props.fit === 'string' && FITS[props.fit]) ||
    (variant === 'avatar' || variant === 'header' ? 'cover' : 'fill');
  const alt = a11y.label ?? optionalText(props.description) ?? '';
  const attributes = rootAttributes(
    id,
    props,
    classNames('a2ui-image', `a2ui-image-${variant}`, !src && 'a2ui-media-blocked'),
  );
  if (!src) {
    return (
      <span {...attributes} role="img" aria-label={alt || node.strings.blockedMedia}>
        {a11y.descriptionElement}
      </span>
    );
  }
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
      />
      {a11y.descriptionElement}
    </>
  );
}
