import { create } from 'zustand';

interface DriftUiState {
  /** The drift dialog is open. */
  readonly open: boolean;
  readonly actions: { toggled(open: boolean): void };
}

const useDriftStore = create<DriftUiState>()((set) => ({
  open: false,
  actions: { toggled: (open) => set({ open }) },
}));

/** Whether the drift dialog is open. */
export const useDriftDialogOpen = (): boolean => useDriftStore((s) => s.open);
/** Opens or closes the drift dialog (stable across renders). */
export const useDriftActions = (): DriftUiState['actions'] => useDriftStore((s) => s.actions);
