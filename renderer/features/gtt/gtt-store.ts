import { create } from 'zustand';
import type { Gtt } from '@shared/domain/gtt';
import type { GttForm } from './gtt-model';

/**
 * Which GTT form is open: a new one (from the ticket or a position row, pre-filled) on an
 * instrument, or an existing GTT being modified. UI state only; the GTTs live at the broker.
 */
interface GttDialogState {
  readonly open: { readonly instrumentToken: number; readonly form: GttForm; readonly editing: Gtt | null } | null;
  readonly actions: {
    opened(instrumentToken: number, form: GttForm, editing?: Gtt): void;
    closed(): void;
  };
}

const useGttDialogStore = create<GttDialogState>()((set) => ({
  open: null,
  actions: {
    opened: (instrumentToken, form, editing) => set({ open: { instrumentToken, form, editing: editing ?? null } }),
    closed: () => set({ open: null }),
  },
}));

/** The open GTT form, or null. */
export const useGttDialog = (): GttDialogState['open'] => useGttDialogStore((s) => s.open);
/** Opens and closes the GTT form. */
export const useGttDialogActions = (): GttDialogState['actions'] => useGttDialogStore((s) => s.actions);
