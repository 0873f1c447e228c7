import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { useEffect, useRef } from 'react';

/**
 * The trader's workspace preferences, persisted in localStorage across restarts.
 *
 * Only UI state lives here: theme, panel sizes, the watchlist's instrument tokens and two
 * switches. No secrets and no broker data (those belong to main and to react-query; see
 * docs/architecture.md §The renderer). The raw store is not exported: components use the atomic hooks below, and
 * change it only through event-named actions.
 */

export type Theme = 'dark' | 'light';
/** Panel sizes per resizable group (react-resizable-panels' `Layout`: panel id → percent). */
export type Layouts = Readonly<Record<string, Readonly<Record<string, number>>>>;

interface SettingsState {
  readonly theme: Theme;
  readonly layouts: Layouts;
  /** Ask before Enter places an order. */
  readonly confirmOnEnter: boolean;
  /** Ask before a working order dragged on the chart is modified. */
  readonly confirmChartDrag: boolean;
  readonly sound: boolean;
  /**
   * The single watchlist of earlier versions (null if never edited): read once, as the first
   * named list of a profile that has none yet (`watchlists-store.ts`).
   */
  readonly watchlist: readonly number[] | null;
  readonly actions: {
    themeToggled(): void;
    layoutChanged(group: string, layout: Readonly<Record<string, number>>): void;
    confirmOnEnterToggled(): void;
    confirmChartDragToggled(): void;
    soundToggled(): void;
  };
}

const useSettingsStore = create<SettingsState>()(
  persist(
    (set) => ({
      theme: 'dark',
      layouts: {},
      confirmOnEnter: true,
      confirmChartDrag: true,
      sound: false,
      watchlist: null,
      actions: {
        themeToggled: () => set((s) => ({ theme: s.theme === 'dark' ? 'light' : 'dark' })),
        layoutChanged: (group, layout) => set((s) => ({ layouts: { ...s.layouts, [group]: { ...layout } } })),
        confirmOnEnterToggled: () => set((s) => ({ confirmOnEnter: !s.confirmOnEnter })),
        confirmChartDragToggled: () => set((s) => ({ confirmChartDrag: !s.confirmChartDrag })),
        soundToggled: () => set((s) => ({ sound: !s.sound })),
      },
    }),
    {
      name: 'tradedesk.settings',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ theme, layouts, confirmOnEnter, confirmChartDrag, sound, watchlist }) => ({
        theme,
        layouts,
        confirmOnEnter,
        confirmChartDrag,
        sound,
        watchlist,
      }),
    },
  ),
);

/** The colour theme. */
export const useTheme = (): Theme => useSettingsStore((s) => s.theme);
/** Saved panel sizes of one group, if the trader resized it. */
export const useSavedLayout = (group: string): Readonly<Record<string, number>> | undefined =>
  useSettingsStore((s) => s.layouts[group]);
/** Whether Enter in the ticket asks for confirmation first. */
export const useConfirmOnEnter = (): boolean => useSettingsStore((s) => s.confirmOnEnter);
/** Whether a working order dragged on the chart asks before it is modified. */
export const useConfirmChartDrag = (): boolean => useSettingsStore((s) => s.confirmChartDrag);
/** Whether order notifications beep. */
export const useSoundOn = (): boolean => useSettingsStore((s) => s.sound);

/** Whether sound is on, read when an event arrives: for handlers subscribed once (a toast's beep). */
export function useSoundOnRef(): { readonly current: boolean } {
  const sound = useSoundOn();
  const ref = useRef(sound);
  useEffect(() => {
    ref.current = sound;
  }, [sound]);
  return ref;
}
/** The single watchlist of earlier versions (null: never edited), which seeds a profile's first named list. */
export const useWatchlistTokens = (): readonly number[] | null => useSettingsStore((s) => s.watchlist);
/** Every group's saved sizes now, for a workspace being saved (docs/workstation.md §Workspaces). */
export const savedLayouts = (): Layouts => useSettingsStore.getState().layouts;
/** Another window of the desk wrote the settings: take its values (they share this page's storage). */
export const rereadSettings = (): Promise<void> | void => useSettingsStore.persist.rehydrate();
/** The actions, stable across renders. */
export const useSettingsActions = (): SettingsState['actions'] => useSettingsStore((s) => s.actions);
