import { useEffect } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import { useShownInstrument } from '../market/use-shown-instrument';
import { useDeskPanel } from './desk-panel';

/**
 * The underlying whose options a linked chain shows for `instrument`, among `underlyings`: a
 * derivative's underlying (its name), a stock's or an index's own symbol (or its name: the index
 * "NIFTY 50" has options on "NIFTY"); null when it has no options.
 */
export function chainUnderlyingOf(instrument: Instrument | undefined, underlyings: readonly string[]): string | null {
  if (!instrument) return null;
  const candidates =
    instrument.instrumentType === 'EQ' ? [instrument.tradingsymbol, instrument.name] : [instrument.name];
  return candidates.find((c) => underlyings.includes(c)) ?? null;
}

/**
 * An option chain in a colour group follows the group's instrument (docs/workstation.md §Link):
 * when the group moves to an instrument with options (NIFTY, an option or future on it, INFY) the
 * chain shows that underlying. Only a move of the group is followed, so the trader can still
 * choose another underlying in the chain itself. A chain in no group keeps its own.
 */
export function useChainFollowsLink(underlyings: readonly string[], current: string, choose: (u: string) => void) {
  const panel = useDeskPanel();
  const { instrument } = useShownInstrument();
  const target = panel?.link ? chainUnderlyingOf(instrument, underlyings) : null;
  useEffect(() => {
    if (target && target !== current) choose(target);
    // Only the group's move is followed (see above).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target]);
}
