import type { Instrument } from '@shared/domain/instrument';
import { useQuote } from '../market/use-quotes';
import { parseNumber, type TicketDraft } from './ticket-model';

/**
 * Where the ticket's entry is expected to fill, for its stop-loss distance and size from risk
 * (docs/brackets.md §In the ticket): the typed limit (LIMIT, SL), the trigger (SL-M), else the
 * last price. The last price is followed live only while `live` (the section is open), so a
 * closed section does not re-render the ticket on every tick.
 */
export function useEntryPrice(draft: TicketDraft, instrument: Instrument | undefined, live: boolean): number | null {
  const quote = useQuote(instrument?.instrumentToken, live && draft.orderType === 'MARKET');
  if (!instrument) return null;
  const typed = (text: string): number | null => {
    const v = parseNumber(text);
    return v > 0 ? v : null;
  };
  if (draft.orderType === 'LIMIT' || draft.orderType === 'SL') return typed(draft.price);
  if (draft.orderType === 'SL-M') return typed(draft.triggerPrice);
  const last = quote?.lastPrice ?? instrument.lastPrice;
  return last > 0 ? last : null;
}
