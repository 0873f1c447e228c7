import { create } from 'zustand';
import { MAX_STRATEGY_LEGS, type BuilderLeg } from './builder-model';

/**
 * The strategy being built (UI state, docs/strategy.md): its underlying, its legs, whether the
 * builder is open, and the what-if the trader has dialled in — the spot moved by a percentage,
 * the IVs by some points, some days gone by. Nothing here is an order: placing reads the legs and
 * sends each through `orders.place`. Kept for the session, not persisted (expiries roll over; a
 * strategy worth keeping is placed or saved as a basket).
 */
export interface WhatIf {
  /** The spot moved by this percentage (−10…+10). */
  readonly spotPct: number;
  /** Every leg's IV moved by this many percentage points (−10…+10). */
  readonly ivPoints: number;
  /** Days from now the "before expiry" curve and the figures are drawn for. */
  readonly days: number;
}

export const NO_WHAT_IF: WhatIf = { spotPct: 0, ivPoints: 0, days: 0 };

interface StrategyState {
  readonly underlying: string | null;
  readonly legs: readonly BuilderLeg[];
  readonly open: boolean;
  readonly whatIf: WhatIf;
  readonly actions: {
    /** Adds a leg; a leg of another underlying starts a new strategy (the old one is not lost silently: the caller says so). */
    legAdded(leg: BuilderLeg): 'added' | 'replaced' | 'full';
    legChanged(id: number, leg: BuilderLeg): void;
    legRemoved(id: number): void;
    legsReplaced(underlying: string, legs: readonly BuilderLeg[]): void;
    underlyingChosen(underlying: string): void;
    cleared(): void;
    opened(): void;
    closed(): void;
    whatIfChanged(change: Partial<WhatIf>): void;
  };
}

const useStrategyStore = create<StrategyState>()((set, get) => ({
  underlying: null,
  legs: [],
  open: false,
  whatIf: NO_WHAT_IF,
  actions: {
    legAdded: (leg) => {
      const s = get();
      if (s.underlying !== leg.underlying && s.legs.length > 0) {
        set({ underlying: leg.underlying, legs: [leg], whatIf: NO_WHAT_IF });
        return 'replaced';
      }
      if (s.legs.length >= MAX_STRATEGY_LEGS) return 'full';
      set({ underlying: leg.underlying, legs: [...s.legs, leg] });
      return 'added';
    },
    legChanged: (id, leg) => set((s) => ({ legs: s.legs.map((l) => (l.id === id ? leg : l)) })),
    legRemoved: (id) => set((s) => ({ legs: s.legs.filter((l) => l.id !== id) })),
    legsReplaced: (underlying, legs) => set({ underlying, legs: legs.slice(0, MAX_STRATEGY_LEGS), whatIf: NO_WHAT_IF }),
    underlyingChosen: (underlying) =>
      set((s) => (s.underlying === underlying ? s : { underlying, legs: [], whatIf: NO_WHAT_IF })),
    cleared: () => set({ legs: [], whatIf: NO_WHAT_IF }),
    opened: () => set({ open: true }),
    closed: () => set({ open: false }),
    whatIfChanged: (change) => set((s) => ({ whatIf: { ...s.whatIf, ...change } })),
  },
}));

export const useStrategyUnderlying = (): string | null => useStrategyStore((s) => s.underlying);
export const useStrategyLegs = (): readonly BuilderLeg[] => useStrategyStore((s) => s.legs);
export const useStrategyOpen = (): boolean => useStrategyStore((s) => s.open);
export const useWhatIf = (): WhatIf => useStrategyStore((s) => s.whatIf);
/** The actions, stable across renders. */
export const useStrategyActions = (): StrategyState['actions'] => useStrategyStore((s) => s.actions);
