import { useEffect, useRef } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import { takesPrice } from '@shared/trading/rules';
import { useBook } from '../depth/use-book';
import { useQuote } from '../market/use-quotes';
import { livePrefill, priceSourceText, type PriceFrom } from './price-prefill';
import type { TicketDraft } from './ticket-model';

/**
 * Puts a price the ticket filled in on the live touch as soon as it is known, and says under
 * the price where it came from (price-prefill.ts). It reads the book only while such a price
 * waits for it, so the ticket does not re-render on every tick.
 */
export function TicketPriceSource(props: {
  readonly draft: TicketDraft;
  readonly instrument: Instrument | undefined;
  readonly onPatch: (patch: { readonly price?: string; readonly priceFrom: PriceFrom }) => void;
}) {
  const { draft, instrument } = props;
  const waiting = draft.priceFrom === 'pending' || draft.priceFrom === 'close';
  const token = waiting && instrument ? instrument.instrumentToken : null;
  const book = useBook(token);
  const quote = useQuote(token);
  const patch = livePrefill(draft, instrument, book, quote?.lastPrice ?? null);
  const onPatch = useRef(props.onPatch);
  useEffect(() => {
    onPatch.current = props.onPatch;
  });
  const price = patch?.price;
  const from = patch?.priceFrom;
  useEffect(() => {
    if (from) onPatch.current(price === undefined ? { priceFrom: from } : { price, priceFrom: from });
  }, [price, from]);
  const text = takesPrice(draft.orderType) ? priceSourceText(draft.priceFrom) : undefined;
  if (!text) return null;
  return (
    <p
      className={`ticket__note${draft.priceFrom === 'close' ? ' ticket__note--warn' : ''}`}
      data-testid="ticket-price-source"
    >
      {text}
    </p>
  );
}
