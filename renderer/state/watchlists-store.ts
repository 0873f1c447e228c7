import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { ProfileLists } from './watchlists-model';

/**
 * Every profile's named watchlists, persisted in localStorage (docs/desk.md §Named watchlists).
 * UI state only: instrument tokens and names, no broker data. A profile the store has never
 * seen has no entry: its first list is seeded by the caller (the legacy single watchlist, else
 * the defaults) and stored on its first change.
 */
interface WatchlistsState {
  readonly byProfile: Readonly<Record<string, ProfileLists>>;
  readonly actions: {
    /** Applies `change` to `profile`'s lists (`seed` when it has none yet). */
    watchlistsChanged(profile: string, seed: ProfileLists, change: (p: ProfileLists) => ProfileLists): void;
  };
}

const useWatchlistsStore = create<WatchlistsState>()(
  persist(
    (set) => ({
      byProfile: {},
      actions: {
        watchlistsChanged: (profile, seed, change) =>
          set((s) => {
            const before = s.byProfile[profile] ?? seed;
            const after = change(before);
            return after === before && s.byProfile[profile] ? s : { byProfile: { ...s.byProfile, [profile]: after } };
          }),
      },
    }),
    {
      name: 'tradedesk.watchlists',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ byProfile }) => ({ byProfile }),
    },
  ),
);

/** One profile's lists, or undefined before its first change. */
export const useProfileLists = (profile: string): ProfileLists | undefined =>
  useWatchlistsStore((s) => s.byProfile[profile]);
/** The actions, stable across renders. */
export const useWatchlistsActions = (): WatchlistsState['actions'] => useWatchlistsStore((s) => s.actions);
