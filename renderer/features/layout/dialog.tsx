import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog: named by its title, closes on Esc (even after the focused element inside it
 * went away), and on open puts the focus where the
 * trader's next key belongs (`initialFocus`), never on the header's ×; gives the focus back to
 * whatever had it before on close (a trader keeps working from the keyboard).
 */
export function Dialog(props: {
  readonly title: string;
  readonly onClose?: () => void;
  readonly children: ReactNode;
  readonly wide?: boolean;
  /** Nearly the whole window: a screen of its own (the strategy builder, the journal). */
  readonly screen?: boolean;
}) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const { onClose } = props;
  useEffect(() => {
    const before = document.activeElement;
    if (ref.current) initialFocus(ref.current).focus();
    return () => {
      if (before instanceof HTMLElement) before.focus();
    };
  }, []);
  // The focused element can leave the page while the dialog is open (a Stop button gone when its
  // run ends): focus falls to the body, where the dialog's own Esc handler never hears the key.
  // Esc then still closes the topmost dialog.
  useEffect(() => {
    if (!onClose) return undefined;
    const onKey = (e: KeyboardEvent): void => {
      const lost = document.activeElement === null || document.activeElement === document.body;
      const dialogs = document.querySelectorAll('[role="dialog"]');
      if (e.key === 'Escape' && lost && dialogs[dialogs.length - 1] === ref.current) onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose?.()}>
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        tabIndex={-1}
        aria-labelledby={titleId}
        className={`dialog${props.wide ? ' dialog--wide' : ''}${props.screen ? ' dialog--screen' : ''}`}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && onClose) {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <div className="dialog__head">
          <h2 id={titleId}>{props.title}</h2>
          {onClose ? (
            <button type="button" className="icon" aria-label="Close" onClick={onClose}>
              ×
            </button>
          ) : null}
        </div>
        {props.children}
      </div>
    </div>
  );
}

/** A field a trader can type into or choose in (an enabled input, select or text area). */
const FIELD = 'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])';

/**
 * Where a dialog's focus starts: the element it marks `data-autofocus` (its deliberate choice:
 * the palette's search box, the kill switch's confirmation), else the first field of its body,
 * else the first button of its body (a confirmation), else the dialog itself, so a screen reader
 * reads its title — never the header's ×, which comes first in the document.
 */
function initialFocus(dialog: HTMLElement): HTMLElement {
  const inBody = (selector: string): HTMLElement | undefined =>
    [...dialog.querySelectorAll<HTMLElement>(selector)].find((e) => !e.closest('.dialog__head'));
  return inBody('[data-autofocus]') ?? inBody(FIELD) ?? inBody('button:not([disabled])') ?? dialog;
}
