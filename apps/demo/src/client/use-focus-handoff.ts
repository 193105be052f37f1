/**
 * Keeps keyboard and screen-reader users oriented when the agent replaces one surface with
 * another (Book → the form, Confirm → the confirmation): the focused control disappears with its
 * surface and focus would drop to `<body>`, so it moves to the new surface's heading, and the
 * heading is announced.
 */
import { type RefObject, useEffect, useRef, useState } from 'react';

/** Where the focus went and what was said, for the live region. */
export interface FocusHandoff {
  /** The sentence for a polite live region; changes on every handoff. */
  readonly announcement: string;
}

function focusIsLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

function findHeading(card: HTMLElement): HTMLElement | null {
  return card.querySelector<HTMLElement>('.surface-body :is(h1, h2, h3, h4, h5, h6)');
}

/** Focuses `target` by script, keeping it out of the Tab order. */
function focusByScript(target: HTMLElement): void {
  if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus();
}

/**
 * Focuses the new surface's heading and announces it. Its components and data may arrive a
 * moment after the surface itself: until then the card holds the focus, the heading takes it over
 * when it appears and is announced as its text fills in. The focus is only ever moved while it is
 * still where the handoff put it (the card or its heading): once the user moves on, typing into a
 * field that re-renders never loses the focus to the heading. Returns a function that stops
 * watching.
 */
function handOffFocus(
  card: HTMLElement,
  announce: (name: string) => void,
  takeFocus: boolean,
): () => void {
  let heading: HTMLElement | null = null;
  let holdsFocus = takeFocus;
  const focusIsOurs = (): boolean =>
    document.activeElement === card || (heading !== null && document.activeElement === heading);
  /** Focuses the heading once it exists, and says its text as its bindings fill it in. */
  const settle = (): void => {
    if (holdsFocus && !focusIsOurs()) holdsFocus = false;
    heading = findHeading(card);
    if (!heading) return;
    if (holdsFocus && document.activeElement !== heading) focusByScript(heading);
    const name = heading.textContent?.trim();
    if (name) announce(name);
    // Only announced: said once its heading has text, then left alone.
    if (!takeFocus && name) observer.disconnect();
  };
  const observer = new MutationObserver(settle);
  if (takeFocus) focusByScript(card);
  settle();
  observer.observe(card, { childList: true, subtree: true, characterData: true });
  return () => observer.disconnect();
}

/**
 * Watches the list of surface keys rendered in `container` (each card carries
 * `data-surface-key`). When a surface is removed while it held the focus, the next surface to
 * have appeared (just before, with the removal, or later) takes the focus and is announced. A
 * surface added beside the others is announced and the focus stays where it is. Focus the user
 * placed elsewhere is never taken.
 */
export function useFocusHandoff(
  container: RefObject<HTMLElement | null>,
  keys: readonly string[],
): FocusHandoff {
  const previous = useRef<ReadonlySet<string>>(new Set(keys));
  /** A surface was removed with the focus in it; the next new surface takes the focus. */
  const pending = useRef(false);
  const [announcement, setAnnouncement] = useState('');
  const stopWatching = useRef<() => void>(() => {});
  const lastAdded = useRef<string | undefined>(undefined);
  useEffect(() => () => stopWatching.current(), []);

  useEffect(() => {
    const before = previous.current;
    const now = new Set(keys);
    previous.current = now;
    const removed = [...before].some((key) => !now.has(key));
    const added = keys.filter((key) => !before.has(key));
    if (added.length > 0) lastAdded.current = added[added.length - 1];
    const lost = focusIsLost();
    if (removed && lost) pending.current = true;
    const cardOf = (key: string | undefined) =>
      key === undefined || !now.has(key)
        ? null
        : container.current?.querySelector<HTMLElement>(`[data-surface-key="${CSS.escape(key)}"]`);
    if (pending.current && !lost) pending.current = false;
    if (pending.current) {
      // The newest surface, whether it arrived with this change or just before the removal.
      const card = cardOf(lastAdded.current);
      if (!card) return;
      pending.current = false;
      stopWatching.current();
      stopWatching.current = handOffFocus(
        card,
        (name) => setAnnouncement(`Now showing: ${name}`),
        true,
      );
      return;
    }
    // A surface added beside the others: announced, the focus left where the user put it.
    const card = cardOf(added[added.length - 1]);
    if (!card) return;
    stopWatching.current();
    stopWatching.current = handOffFocus(card, (name) => setAnnouncement(`New: ${name}`), false);
  }, [keys, container]);

  return { announcement };
}
