import { useEffect, useState } from 'react';
import { useToastActions, useToasts, type Toast } from '../../state/toast-store';
import { expiresAfter, trayOf } from './toast-tray';

/**
 * The notifications tray at the right of the status bar (docs/renderer.md §Notifications): the
 * newest toast (a sticky one first) on one line, the others behind "+N more". It sits in the
 * page's layout, not over it, so however many toasts come it covers no control; the list opens
 * over the workspace only when the trader asks for it. A fill or a cancel goes by itself after a
 * few seconds, a rejection stays until dismissed.
 */
export function Toaster() {
  const toasts = useToasts();
  const { shown, more, moreRejected } = trayOf(toasts);
  const [open, setOpen] = useState(false);
  const listOpen = open && more.length > 0;
  return (
    <div className="toasts" role="region" aria-live="polite" aria-label="Notifications">
      {shown ? <ToastItem key={shown.id} toast={shown} /> : <span className="muted small">No new notifications</span>}
      {more.length > 0 ? (
        <button
          type="button"
          className="small toasts__more-toggle"
          aria-expanded={listOpen}
          aria-controls="toasts-more"
          onClick={() => setOpen(!open)}
        >
          +{more.length} more{moreRejected > 0 ? ` (${moreRejected} rejected)` : ''} {listOpen ? '▾' : '▴'}
        </button>
      ) : null}
      <ul id="toasts-more" className="toasts__more" hidden={!listOpen} aria-label="Older toasts">
        {more.map((t) => (
          <li key={t.id}>
            <ToastItem toast={t} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function ToastItem({ toast }: { readonly toast: Toast }) {
  const { toastDismissed } = useToastActions();
  useEffect(() => {
    const ms = expiresAfter(toast);
    if (ms === null) return;
    const timer = setTimeout(() => toastDismissed(toast.id), ms);
    return () => clearTimeout(timer);
  }, [toast, toastDismissed]);
  const text = toast.detail ? `${toast.title} — ${toast.detail}` : toast.title;
  return (
    <div
      className={`toast toast--${toast.tone}${toast.sticky ? ' toast--sticky' : ''}`}
      role={toast.tone === 'bad' ? 'alert' : undefined}
      title={text}
    >
      <span className="toast__text">
        <strong>{toast.title}</strong>
        {toast.detail ? <span className="small"> — {toast.detail}</span> : null}
      </span>
      {toast.sticky ? null : (
        <button type="button" className="icon" aria-label="Dismiss" onClick={() => toastDismissed(toast.id)}>
          ×
        </button>
      )}
    </div>
  );
}
