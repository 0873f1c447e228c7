import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { NO_BASKETS, type ProfileBaskets } from './baskets-model';

/**
 * Every profile's basket and saved baskets, persisted in localStorage (docs/desk.md §Baskets).
 * Orders not yet sent, as the trader built them: nothing here has been placed, and placing
 * never reads a basket from here behind the trader's back.
 */
interface BasketsState {
  readonly byProfile: Readonly<Record<string, ProfileBaskets>>;
  readonly actions: {
    basketsChanged(profile: string, change: (b: ProfileBaskets) => ProfileBaskets): void;
  };
}

const useBasketsStore = create<BasketsState>()(
  persist(
    (set) => ({
      byProfile: {},
      actions: {
        basketsChanged: (profile, change) =>
          set((s) => ({ byProfile: { ...s.byProfile, [profile]: change(s.byProfile[profile] ?? NO_BASKETS) } })),
      },
    }),
    {
      name: 'tradedesk.baskets',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ byProfile }) => ({ byProfile }),
    },
  ),
);

/** One profile's baskets. */
export const useProfileBaskets = (profile: string): ProfileBaskets =>
  useBasketsStore((s) => s.byProfile[profile] ?? NO_BASKETS);
/** The actions, stable across renders. */
export const useBasketsActions = (): BasketsState['actions'] => useBasketsStore((s) => s.actions);
