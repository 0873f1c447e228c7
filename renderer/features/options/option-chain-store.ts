import { create } from 'zustand';

/** Where a contract's B / S puts it: the basket (orders to place) or the strategy builder's legs. */
export type ChainTarget = 'basket' | 'strategy';

/**
 * The option chain's choices (UI state): which underlying, and which expiry of it (null: the
 * nearest), whether the Greeks columns show and where B / S add a contract. Kept for the session,
 * so switching tabs keeps the chain where the trader left it; not persisted, since expiries roll
 * over.
 */
interface OptionChainState {
  readonly underlying: string;
  readonly expiry: string | null;
  readonly greeks: boolean;
  readonly target: ChainTarget;
  readonly actions: {
    underlyingChosen(underlying: string): void;
    expiryChosen(expiry: string | null): void;
    greeksShown(on: boolean): void;
    targetChosen(target: ChainTarget): void;
  };
}

const useOptionChainStore = create<OptionChainState>()((set) => ({
  underlying: 'NIFTY',
  expiry: null,
  greeks: false,
  target: 'basket',
  actions: {
    underlyingChosen: (underlying) => set({ underlying, expiry: null }),
    expiryChosen: (expiry) => set({ expiry }),
    greeksShown: (greeks) => set({ greeks }),
    targetChosen: (target) => set({ target }),
  },
}));

/** The underlying shown. */
export const useChainUnderlying = (): string => useOptionChainStore((s) => s.underlying);
/** The expiry chosen (null: the nearest). */
export const useChainExpiry = (): string | null => useOptionChainStore((s) => s.expiry);
/** Whether the Γ, Θ and vega columns show. */
export const useChainGreeks = (): boolean => useOptionChainStore((s) => s.greeks);
/** Where B / S add a contract. */
export const useChainTarget = (): ChainTarget => useOptionChainStore((s) => s.target);
/** The actions, stable across renders. */
export const useOptionChainActions = (): OptionChainState['actions'] => useOptionChainStore((s) => s.actions);
