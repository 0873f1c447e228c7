import { create } from 'zustand';

/** What the keyboard opens over the workspace: the command palette or the shortcuts sheet. */
export type Overlay = 'palette' | 'shortcuts' | null;

interface OverlayState {
  readonly overlay: Overlay;
  readonly actions: {
    overlayOpened(o: Exclude<Overlay, null>): void;
    overlayClosed(): void;
  };
}

const useOverlayStore = create<OverlayState>()((set) => ({
  overlay: null,
  actions: {
    overlayOpened: (overlay) => set({ overlay }),
    overlayClosed: () => set({ overlay: null }),
  },
}));

/** The overlay shown, if any. */
export const useOverlay = (): Overlay => useOverlayStore((s) => s.overlay);
/** Opening and closing them, stable across renders. */
export const useOverlayActions = (): OverlayState['actions'] => useOverlayStore((s) => s.actions);
