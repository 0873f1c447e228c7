import { create } from 'zustand';

/**
 * Alerts the whole app shows: why the session ended. UI state only (the session itself is
 * react-query's `session.status`); cleared when the trader logs in again.
 */
interface AlertsState {
  readonly sessionExpired: string | null;
  readonly actions: {
    sessionExpired(reason: string): void;
    loggedIn(): void;
  };
}

const useAlertsStore = create<AlertsState>()((set) => ({
  sessionExpired: null,
  actions: {
    sessionExpired: (reason) => set({ sessionExpired: reason }),
    loggedIn: () => set({ sessionExpired: null }),
  },
}));

/** The reason the session expired, or null while it is fine. */
export const useSessionExpired = (): string | null => useAlertsStore((s) => s.sessionExpired);
/** Alert actions, stable across renders. */
export const useAlertsActions = (): AlertsState['actions'] => useAlertsStore((s) => s.actions);
