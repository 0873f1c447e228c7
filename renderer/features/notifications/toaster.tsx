import { useEffect } from 'react';
import { useToastActions, useToasts, type Toast } from '../../state/toast-store';

/** How long a toast stays; rejections stay until dismissed (a trader must not miss one). */
const TOAST_MS = 6_000;

/** The notification stack in the corner. */
export function Toaster() {
  const toasts = useToasts();
  return (
    <div className="toasts" role="region" aria-live="polite" aria-label="Notifications">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}

function ToastItem({ toast }: { readonly toast: Toast }) {
  const { toastDismissed } = useToastActions();
  useEffect(() => {
    if (toast.tone === 'bad') return;
    const timer = setTimeout(() => toastDismissed(toast.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast, toastDismissed]);
  return (
    <div className={`toast toast--${toast.tone}`} role={toast.tone === 'bad' ? 'alert' : undefined}>
      <div>
        <strong>{toast.title}</strong>
        {toast.detail ? <div className="small">{toast.detail}</div> : null}
      </div>
      <button type="button" className="icon" aria-label="Dismiss" onClick={() => toastDismissed(toast.id)}>
        ×
      </button>
    </div>
  );
}
