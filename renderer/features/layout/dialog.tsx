import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog: named by its title, closes on Esc, focuses its `data-autofocus` element (else
 * its first field or button) on open and gives focus back to whatever had it before (a trader
 * keeps working from the keyboard).
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
    // A field marked `data-autofocus` first (a selector list alone matches in document order,
    // where the header's Close button comes before every field), else the first field or button.
    const first =
      ref.current?.querySelector<HTMLElement>('[data-autofocus]') ??
      ref.current?.querySelector<HTMLElement>('input:not([disabled]), select, textarea, button');
    first?.focus();
    return () => {
      if (before instanceof HTMLElement) before.focus();
    };
  }, []);
  return (
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose?.()}>
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={`dialog${props.wide ? ' dialog--wide' : ''}${props.screen ? ' dialog--screen' : ''}`}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && onClose) {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <header className="dialog__head">
          <h2 id={titleId}>{props.title}</h2>
          {onClose ? (
            <button type="button" className="icon" aria-label="Close" onClick={onClose}>
              ×
            </button>
          ) : null}
        </header>
        {props.children}
      </div>
    </div>
  );
}
