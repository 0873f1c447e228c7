import { create } from 'zustand';

/** How a toast looks: good news, bad news, neutral. */
export type ToastTone = 'good' | 'bad' | 'neutral';

/** One notification. */
export interface Toast {
  readonly id: string;
  readonly tone: ToastTone;
  readonly title: string;
  readonly detail: string | null;
  /**
   * Stays, first in the tray, until whoever raised it takes it away (`toastDismissed`): for a
   * state that lasts, such as a position left unprotected. The trader cannot dismiss it.
   */
  readonly sticky?: boolean;
}

interface ToastState {
  readonly toasts: readonly Toast[];
  readonly actions: {
    /** Raises a toast; one with the id of a toast on screen replaces it in place. */
    toastRaised(t: Toast): void;
    toastDismissed(id: string): void;
  };
}

/**
 * At most this many toasts are kept. Past it the oldest that would expire anyway gives way
 * first; a rejection or a sticky toast is never dropped for a burst of fills.
 */
export const MAX_TOASTS = 30;

/** The toasts after `t` is raised (`toast-store.ts`'s rule, without the store). */
export function toastsAfterRaise(toasts: readonly Toast[], t: Toast): readonly Toast[] {
  if (toasts.some((x) => x.id === t.id)) return toasts.map((x) => (x.id === t.id ? t : x));
  const next = [...toasts, t];
  while (next.length > MAX_TOASTS) {
    const drop = next.findIndex((x) => !x.sticky && x.tone !== 'bad');
    next.splice(drop === -1 ? 0 : drop, 1);
  }
  return next;
}

const useToastStore = create<ToastState>()((set) => ({
  toasts: [],
  actions: {
    toastRaised: (t) => set((s) => ({ toasts: toastsAfterRaise(s.toasts, t) })),
    toastDismissed: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  },
}));

/** The toasts on screen, oldest first. */
export const useToasts = (): readonly Toast[] => useToastStore((s) => s.toasts);
/** Toast actions, stable across renders. */
export const useToastActions = (): ToastState['actions'] => useToastStore((s) => s.actions);
