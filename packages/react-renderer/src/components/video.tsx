/**
 * Video (§9): the native player with controls, full width, after the URL policy.
 */
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import { classNames, describedBy, rootAttributes, useAccessibility } from './component-helpers.js';

/** Resolved props of Video. */
export interface VideoProps {
  readonly url?: unknown;
  /** v1.0: the image shown before the video plays; passes the URL policy like `url`. */
  readonly posterUrl?: unknown;
}

/**
 * `<video controls>` that loads metadata only until played, with its `posterUrl` (v1.0) as the
 * poster; a refused URL renders a labelled box (a refused poster is left out).
 */
export function Video({ id, props, node }: A2uiComponentProps<VideoProps>) {
  const a11y = useAccessibility(props);
  const src = node.sanitizeUrl(props.url);
  const attributes = rootAttributes(
    id,
    props,
    classNames('a2ui-video', !src && 'a2ui-media-blocked'),
  );
  if (!src) {
    return (
      <span {...attributes} role="img" aria-label={a11y.label ?? node.strings.blockedMedia}>
        {a11y.descriptionElement}
      </span>
    );
  }
  return (
    <>
      <video
        {...attributes}
        src={src}
        poster={node.sanitizeUrl(props.posterUrl, 'posterUrl')}
        controls
        preload="metadata"
        aria-label={a11y.label}
        aria-describedby={describedBy(a11y.descriptionId)}
      />
      {a11y.descriptionElement}
    </>
  );
}
