import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { NO_DRAWINGS, type Drawings } from './drawings-model';

/**
 * Every instrument's drawings, persisted in localStorage (docs/desk.md §Chart studies and
 * drawings): what the trader drew, no broker data. Keyed by instrument token.
 */
interface DrawingsState {
  readonly byInstrument: Readonly<Record<string, Drawings>>;
  readonly actions: { drawingsChanged(token: number, change: (d: Drawings) => Drawings): void };
}

const useDrawingsStore = create<DrawingsState>()(
  persist(
    (set) => ({
      byInstrument: {},
      actions: {
        drawingsChanged: (token, change) =>
          set((s) => {
            const before = s.byInstrument[token] ?? NO_DRAWINGS;
            const after = change(before);
            return after === before ? s : { byInstrument: { ...s.byInstrument, [token]: after } };
          }),
      },
    }),
    {
      name: 'tradedesk.drawings',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ byInstrument }) => ({ byInstrument }),
    },
  ),
);

/** One instrument's drawings (none for no instrument). */
export const useDrawings = (token: number | null): Drawings =>
  useDrawingsStore((s) => (token === null ? NO_DRAWINGS : (s.byInstrument[token] ?? NO_DRAWINGS)));
/** The actions, stable across renders. */
export const useDrawingsActions = (): DrawingsState['actions'] => useDrawingsStore((s) => s.actions);
