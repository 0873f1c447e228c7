import { create } from 'zustand';

/** How a toast looks: good news, bad news, neutral. */
export type ToastTone = 'good' | 'bad' | 'neutral';

/** One notification. */
export interface Toast {
  readonly id: string;
  readonly tone: ToastTone;
  readonly title: string;
  readonly detail: string | null;
}

interface ToastState {
  readonly toasts: readonly Toast[];
  readonly actions: {
    toastRaised(t: Toast): void;
    toastDismissed(id: string): void;
  };
}

/** At most this many toasts on screen; older ones give way (a burst of fills must not bury the screen). */
const MAX_TOASTS = 5;

const useToastStore = create<ToastState>()((set) => ({
  toasts: [],
  actions: {
    toastRaised: (t) =>
      set((s) => (s.toasts.some((x) => x.id === t.id) ? s : { toasts: [...s.toasts, t].slice(-MAX_TOASTS) })),
    toastDismissed: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  },
}));

/** The toasts on screen, oldest first. */
export const useToasts = (): readonly Toast[] => useToastStore((s) => s.toasts);
/** Toast actions, stable across renders. */
export const useToastActions = (): ToastState['actions'] => useToastStore((s) => s.actions);
