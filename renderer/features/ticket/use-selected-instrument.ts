import type { Instrument } from '@shared/domain/instrument';
import { useSelectedToken } from './ticket-store';
import { useInstruments } from '../instruments/queries';

/** The instrument last selected (watchlist row or ticket), which F1/F2 open a ticket for. */
export function useSelectedInstrument(): Instrument | undefined {
  const token = useSelectedToken();
  const { byToken } = useInstruments();
  return token === null ? undefined : byToken.get(token);
}
