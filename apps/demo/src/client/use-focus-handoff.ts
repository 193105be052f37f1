/**
 * Keeps keyboard and screen-reader users oriented when the agent replaces one surface with
 * another (Book → the form, Confirm → the confirmation): the focused control disappears with its
 * surface and focus would drop to `<body>`, so it moves to the new surface's heading, and the
 * heading is announced. A surface the agent creates in answer to the user's action (Find tables
 * → the results, Play → the example) takes the focus the same way, even though the control that
 * sent the action is still there: the page scrolls to the new surface, and a focus left behind
 * would be off-screen (at 390 px) with the next Tab far from what appeared.
 */
import type { A2uiClient, ClientEvent } from '@a2ui-ts/core';
import { type RefObject, useEffect, useRef, useState } from 'react';

/** A user's action sent to the agent that no new surface has answered yet. */
export interface PendingAction {
  /** The element focused when the action was sent (the control that sent it). */
  readonly focus: Element | null;
}

/** True for a message carrying a user's action: v0.9/v1.0 `action`, v0.8 `userAction`. */
function isUserAction(event: ClientEvent): boolean {
  return event.type === 'sent' && ('action' in event.message || 'userAction' in event.message);
}

/**
 * The user's last action sent through `client` while no surface has answered it, or `null`. The
 * wait ends when a surface takes it (see {@link useFocusHandoff}), with the next action, or once
 * the user moves on — a key pressed or a pointer put down anywhere — so a surface streamed in
 * later, not in answer to anything, never takes the focus.
 */
export function useActionAwaitingSurface(client: A2uiClient): RefObject<PendingAction | null> {
  const pending = useRef<PendingAction | null>(null);
  useEffect(() => {
    const movedOn = (): void => {
      pending.current = null;
    };
    const unsubscribe = client.subscribe((event) => {
      if (!isUserAction(event)) return;
      pending.current = { focus: document.activeElement };
      // Registered after the key or click that sent the action, so only a later one ends it.
      document.addEventListener('keydown', movedOn, { capture: true, once: true });
      document.addEventListener('pointerdown', movedOn, { capture: true, once: true });
    });
    return () => {
      unsubscribe();
      document.removeEventListener('keydown', movedOn, { capture: true });
      document.removeEventListener('pointerdown', movedOn, { capture: true });
      pending.current = null;
    };
  }, [client]);
  return pending;
}

/** Options of {@link useFocusHandoff}. */
export interface FocusHandoffOptions {
  /**
   * The user's action awaiting a surface (from {@link useActionAwaitingSurface}): the first
   * surface added while it waits takes the focus, when the focus is still on the control that
   * sent it (or was lost). Without it, only a surface replacing the focused one does.
   */
  readonly pendingAction?: RefObject<PendingAction | null>;
}

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
 * surface added in answer to the user's action (`options.pendingAction`) takes the focus too; any
 * other surface added beside the others is announced and the focus stays where it is. Focus the
 * user placed elsewhere is never taken.
 */
export function useFocusHandoff(
  container: RefObject<HTMLElement | null>,
  keys: readonly string[],
  options: FocusHandoffOptions = {},
): FocusHandoff {
  const { pendingAction } = options;
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
    /** `card` takes the focus and is announced; whatever was waiting for a surface is over. */
    const focusOn = (card: HTMLElement): void => {
      pending.current = false;
      stopWatching.current();
      stopWatching.current = handOffFocus(
        card,
        (name) => setAnnouncement(`Now showing: ${name}`),
        true,
      );
    };
    const action = pendingAction?.current;
    if (action && pendingAction && added.length > 0) {
      pendingAction.current = null;
      // The first surface of the answer, while the focus is still on the control that asked.
      const card = cardOf(added[0]);
      if (card && (lost || document.activeElement === action.focus)) {
        focusOn(card);
        return;
      }
    }
    if (pending.current) {
      // The newest surface, whether it arrived with this change or just before the removal.
      const card = cardOf(lastAdded.current);
      if (card) focusOn(card);
      return;
    }
    // A surface added beside the others: announced, the focus left where the user put it.
    const card = cardOf(added[added.length - 1]);
    if (!card) return;
    stopWatching.current();
    stopWatching.current = handOffFocus(card, (name) => setAnnouncement(`New: ${name}`), false);
  }, [keys, container, pendingAction]);

  return { announcement };
}
