import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * Which tab each tabbed slot of the workspace shows (docs/renderer.md §Layout on small
 * screens), persisted like the panel sizes so the workspace opens as the trader left it. UI
 * state only: a slot's id → the id of its shown tab.
 */
interface TabsState {
  readonly shown: Readonly<Record<string, string>>;
  readonly actions: { tabShown(slot: string, tab: string): void };
}

const useTabsStore = create<TabsState>()(
  persist(
    (set) => ({
      shown: {},
      actions: { tabShown: (slot, tab) => set((s) => ({ shown: { ...s.shown, [slot]: tab } })) },
    }),
    {
      name: 'tradedesk.tabs',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ shown }) => ({ shown }),
    },
  ),
);

/** The tab a slot shows, if the trader chose one. */
export const useShownTab = (slot: string): string | undefined => useTabsStore((s) => s.shown[slot]);
/** The actions, stable across renders. */
export const useTabsActions = (): TabsState['actions'] => useTabsStore((s) => s.actions);
/** The tab every slot shows now, for a workspace being saved (docs/workstation.md §Workspaces). */
export const shownTabs = (): Readonly<Record<string, string>> => useTabsStore.getState().shown;
/** Shows the tabs a loaded workspace had. */
export function tabsLoaded(tabs: Readonly<Record<string, string>>): void {
  useTabsStore.setState((s) => ({ shown: { ...s.shown, ...tabs } }));
}
/** Another window of the desk wrote the tabs: take them (they share this page's storage). */
export const rereadTabs = (): Promise<void> | void => useTabsStore.persist.rehydrate();
