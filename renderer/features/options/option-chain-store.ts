import { create } from 'zustand';

/**
 * The option chain's choices (UI state): which underlying, and which expiry of it (null: the
 * nearest). Kept for the session, so switching tabs keeps the chain where the trader left it;
 * not persisted, since expiries roll over.
 */
interface OptionChainState {
  readonly underlying: string;
  readonly expiry: string | null;
  readonly actions: {
    underlyingChosen(underlying: string): void;
    expiryChosen(expiry: string | null): void;
  };
}

const useOptionChainStore = create<OptionChainState>()((set) => ({
  underlying: 'NIFTY',
  expiry: null,
  actions: {
    underlyingChosen: (underlying) => set({ underlying, expiry: null }),
    expiryChosen: (expiry) => set({ expiry }),
  },
}));

/** The underlying shown. */
export const useChainUnderlying = (): string => useOptionChainStore((s) => s.underlying);
/** The expiry chosen (null: the nearest). */
export const useChainExpiry = (): string | null => useOptionChainStore((s) => s.expiry);
/** The actions, stable across renders. */
export const useOptionChainActions = (): OptionChainState['actions'] => useOptionChainStore((s) => s.actions);
