/**
 * AudioPlayer (§9): native audio controls with the description as a visible caption.
 */
import { useId } from 'react';
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import {
  classNames,
  describedBy,
  optionalText,
  rootAttributes,
  useAccessibility,
} from './component-helpers.js';

/** Resolved props of AudioPlayer. */
export interface AudioPlayerProps {
  readonly url?: unknown;
  /** Title or summary, shown as the caption. */
  readonly description?: unknown;
}

/** A `<figure>` with `<figcaption>` naming the `<audio controls>` inside it. */
export function AudioPlayer({ id, props, node }: A2uiComponentProps<AudioPlayerProps>) {
  const a11y = useAccessibility(props);
  const captionId = useId();
  const src = node.sanitizeUrl(props.url);
  const description = optionalText(props.description);
  return (
    <figure {...rootAttributes(id, props, classNames('a2ui-audio', !src && 'a2ui-media-blocked'))}>
      {description ? (
        <figcaption id={captionId} className="a2ui-audio-caption">
          {description}
        </figcaption>
      ) : null}
      {src ? (
        // biome-ignore lint/a11y/useMediaCaption: the protocol carries no caption track; the description above is the caption.
        <audio
          src={src}
          controls
          preload="metadata"
          aria-label={a11y.label}
          aria-labelledby={a11y.label ? undefined : description ? captionId : undefined}
          aria-describedby={describedBy(a11y.descriptionId)}
        />
      ) : (
        <span
          className="a2ui-audio-blocked"
          role="img"
          aria-label={a11y.label ?? node.strings.blockedMedia}
        />
      )}
      {a11y.descriptionElement}
    </figure>
  );
}
