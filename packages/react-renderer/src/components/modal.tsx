/**
 * Modal (§9): the trigger renders inline; activating it opens the content in a dialog with a
 * focus trap, Esc, backdrop click and a close button, and focus returns where it was.
 */
import {
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { createPortal } from 'react-dom';
import { SurfaceContext } from '../provider/renderer-context.js';
import type { A2uiComponentProps, A2uiNode } from '../registry/a2ui-component.js';
import { rootAttributes, useAccessibility } from './component-helpers.js';

/** Resolved props of Modal. */
export interface ModalProps {
  /** Component id shown inline; activating it opens the dialog. */
  readonly trigger?: unknown;
  /** Component id shown in the dialog. */
  readonly content?: unknown;
}

const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, audio[controls], video[controls], [contenteditable]:not([contenteditable="false"]), [tabindex]:not([tabindex="-1"])';

function focusableIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => !element.closest('[hidden], [inert]'),
  );
}

/** The type of component `id`, following updates (it may arrive after the Modal). */
function useComponentType(node: A2uiNode, id: unknown): string | undefined {
  const { surface } = node;
  const componentId = typeof id === 'string' ? id : '';
  const subscribe = useCallback(
    (listener: () => void) =>
      surface.disposed || componentId === ''
        ? () => {}
        : surface.components.subscribe(componentId, listener),
    [surface, componentId],
  );
  const read = () => surface.components.get(componentId)?.type;
  return useSyncExternalStore(subscribe, read, read);
}

/**
 * A trigger that is a Button keeps its own button (its action still fires); any other trigger is
 * wrapped in a button so it can be reached and activated from the keyboard.
 */
export function Modal({ id, props, node }: A2uiComponentProps<ModalProps>) {
  const a11y = useAccessibility(props);
  const runtime = useContext(SurfaceContext);
  const [open, setOpen] = useState(false);
  const triggerId = useId();
  const triggerType = useComponentType(node, props.trigger);
  const restoreFocus = useRef<HTMLElement | null>(null);
  const triggerRef = useRef<HTMLElement | null>(null);

  const openDialog = () => {
    restoreFocus.current =
      document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(true);
  };
  const close = useCallback(() => {
    setOpen(false);
    const target = restoreFocus.current?.isConnected
      ? restoreFocus.current
      : triggerRef.current
        ? (focusableIn(triggerRef.current)[0] ?? null)
        : null;
    // After the dialog is gone, so focus does not land in the closing portal.
    queueMicrotask(() => target?.focus());
  }, []);

  const trigger = node.renderChild(props.trigger);
  return (
    <>
      {triggerType === 'Button' ? (
        // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the Button inside handles keys; its click bubbles here.
        <span
          {...rootAttributes(id, props, 'a2ui-modal-trigger')}
          id={triggerId}
          ref={triggerRef}
          onClick={openDialog}
        >
          {trigger}
        </span>
      ) : (
        <button
          {...rootAttributes(id, props, 'a2ui-modal-trigger a2ui-modal-trigger-button')}
          id={triggerId}
          ref={(element) => {
            triggerRef.current = element;
          }}
          type="button"
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={openDialog}
        >
          {trigger}
        </button>
      )}
      {open && runtime
        ? createPortal(
            <div
              className={`${runtime.theme.className} a2ui-modal-layer`}
              style={runtime.theme.style}
              data-theme={runtime.theme['data-theme']}
            >
              <Dialog
                node={node}
                content={props.content}
                label={a11y.label}
                labelledBy={triggerId}
                description={a11y.descriptionElement}
                describedBy={a11y.descriptionId}
                onClose={close}
              />
            </div>,
            document.body,
          )
        : null}
    </>
  );
}

interface DialogProps {
  readonly node: A2uiNode;
  readonly content: unknown;
  readonly label: string | undefined;
  readonly labelledBy: string;
  /** The agent's description, rendered inside the dialog, and its id. */
  readonly description: ReactNode;
  readonly describedBy: string | undefined;
  readonly onClose: () => void;
}

function Dialog(props: DialogProps) {
  const { node, content, label, labelledBy, description, describedBy, onClose } = props;
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const [first] = focusableIn(dialog).filter(
      (element) => !element.classList.contains('a2ui-modal-close'),
    );
    (first ?? dialog.querySelector<HTMLElement>('.a2ui-modal-close') ?? dialog).focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      event.preventDefault();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = focusableIn(dialogRef.current);
    if (focusable.length === 0) {
      event.preventDefault();
      return;
    }
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialogRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const onBackdrop = (event: MouseEvent<HTMLDivElement>) => {
    if (event.target === event.currentTarget) onClose();
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the backdrop is a pointer affordance; Esc and the close button cover keyboards.
    <div className="a2ui-modal-backdrop" onClick={onBackdrop}>
      <div
        ref={dialogRef}
        className="a2ui-modal"
        role="dialog"
        aria-modal="true"
        aria-label={label}
        aria-labelledby={label ? undefined : labelledBy}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="a2ui-modal-content">{node.renderChild(content)}</div>
        {description}
        <button
          type="button"
          className="a2ui-modal-close"
          aria-label={node.strings.close}
          onClick={onClose}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path
              fill="currentColor"
              d="M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z"
            />
          </svg>
        </button>
      </div>
    </div>
  );
}
