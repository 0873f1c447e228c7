import { create } from 'zustand';
import type { SafetyRequest } from '@shared/domain/safety-run';

interface SafetyUiState {
  /** The risk limits dialog is open. */
  readonly riskDialog: boolean;
  /** The price alerts dialog is open. */
  readonly alertsDialog: boolean;
  /** A safety run waiting for the trader's confirmation. */
  readonly confirming: SafetyRequest | null;
  /** The run's progress dialog is open. */
  readonly runVisible: boolean;
  readonly actions: {
    riskDialogOpened(): void;
    riskDialogClosed(): void;
    alertsDialogToggled(open: boolean): void;
    confirmAsked(action: SafetyRequest): void;
    confirmClosed(): void;
    runShown(): void;
    runHidden(): void;
  };
}

const useSafetyStore = create<SafetyUiState>()((set) => ({
  riskDialog: false,
  alertsDialog: false,
  confirming: null,
  runVisible: false,
  actions: {
    riskDialogOpened: () => set({ riskDialog: true }),
    riskDialogClosed: () => set({ riskDialog: false }),
    alertsDialogToggled: (open) => set({ alertsDialog: open }),
    confirmAsked: (action) => set({ confirming: action }),
    confirmClosed: () => set({ confirming: null }),
    runShown: () => set({ runVisible: true, confirming: null }),
    runHidden: () => set({ runVisible: false }),
  },
}));

/** Whether the risk limits dialog is open. */
export const useRiskDialogOpen = (): boolean => useSafetyStore((s) => s.riskDialog);
/** Whether the price alerts dialog is open. */
export const useAlertsDialogOpen = (): boolean => useSafetyStore((s) => s.alertsDialog);
/** The safety run the trader is asked to confirm, if any. */
export const useConfirming = (): SafetyRequest | null => useSafetyStore((s) => s.confirming);
/** Whether the run's progress is on screen. */
export const useRunVisible = (): boolean => useSafetyStore((s) => s.runVisible);
/** The safety UI's actions, stable across renders. */
export const useSafetyActions = (): SafetyUiState['actions'] => useSafetyStore((s) => s.actions);
