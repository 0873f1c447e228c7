import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import type { OrderType } from '@shared/domain/order';
import { stepQuantity } from '@shared/trading/rules';
import { useTicketActions, useTicketDraft } from './ticket-store';
import { useInstruments } from '../instruments/queries';
import { quotesStoreFor } from '../market/quotes-store';
import { useQuote } from '../market/use-quotes';
import { useMarketSubscription } from '../market/use-market-subscription';
import { useMarketStatus } from '../market-status/queries';
import { sessionOf } from '../market-status/session-model';
import { draftForInstrument, evaluateTicket, orderTypeChosen, parseNumber } from './ticket-model';
import { useTicketMargin } from './margin-summary';
import { asksBeforeSending } from './send-asks';
import { exitsLeftOut } from './bracket-draft';
import { useTicketSending } from './use-ticket-sending';
import { sessionQueries } from '../session/queries';
import { useBrokerOffers } from '../session/use-broker-offers';
import { useTicketBracket } from './use-ticket-bracket';
import { useTicketFollowsLink } from '../workstation/use-ticket-follows-link';

/** The ticket's form model, what its sections read and edit. */
export type TicketForm = ReturnType<typeof useTicketForm>;

/**
 * The order ticket's form model: the draft and the instrument it names, the shared trading
 * rules' verdict on it, how it would be sent (`use-ticket-sending.ts`) and as a bracket
 * (`use-ticket-bracket.ts`; docs/brackets.md §In the ticket), the margin it needs, the questions
 * to ask before sending it, and the edits the trader makes (each takes the last answer and any
 * question away).
 */
export function useTicketForm() {
  const draft = useTicketDraft();
  const { draftEdited, ticketClosed } = useTicketActions();
  const { list, byToken } = useInstruments();
  const instrument = draft.instrumentToken === null ? undefined : byToken.get(draft.instrumentToken);
  const login = useQuery(sessionQueries.status()).data;
  const lastPrice = useQuote(instrument?.instrumentToken)?.lastPrice;
  const offers = useBrokerOffers();
  const evaluation = evaluateTicket(draft, instrument, login ? { ...login, ...offers } : undefined, lastPrice);
  const sending = useTicketSending(draft, instrument, evaluation, login, lastPrice);
  const client = useQueryClient();
  // `full`: the ticket reads the visible depth a MARKET order would take.
  useMarketSubscription('ticket', instrument ? [instrument.instrumentToken] : [], 'full');
  const status = useMarketStatus();
  const session = instrument ? sessionOf(status, instrument.exchange) : undefined;
  const symbolRef = useRef<HTMLInputElement>(null);
  const quantityRef = useRef<HTMLInputElement>(null);
  // The Stop-loss, target & size section (docs/brackets.md §In the ticket); which answer shows.
  // A size from risk is an edit of the quantity like any (the section's own refusal is reset by it).
  const bracket = useTicketBracket(draft, instrument, sending.request, (q) => {
    sending.edited();
    draftEdited({ quantity: String(q) });
  });
  const margin = useTicketMargin(evaluation.request);
  // Questions before sending (exits typed but left out, a margin the account lacks): shown
  // until answered; any edit takes them away.
  const asks = asksBeforeSending({ exitsLeftOut: exitsLeftOut(bracket.draft), margin: margin.check });
  const [asking, setAsking] = useState(false);

  // Focus where the trader types next: the symbol on a blank ticket, else the quantity. Runs
  // once per mount; the panel remounts the form for each newly opened ticket. Not out of an open
  // dialog: the main window draws the ticket after the first screen (docs/live-data.md §The first
  // screen first), when the session dialog may already hold the focus.
  const startsBlank = useRef(draft.instrumentToken === null);
  useEffect(() => {
    if (document.activeElement?.closest('[role="dialog"], dialog')) return;
    (startsBlank.current ? symbolRef : quantityRef).current?.focus();
  }, []);

  const edit = (patch: Parameters<typeof draftEdited>[0]): void => {
    setAsking(false);
    sending.edited();
    bracket.submitter.edited();
    draftEdited(patch);
  };
  // Start a LIMIT at the live price, not the one the instrument list was fetched with.
  const draftFor = (i: Instrument) => {
    const q = quotesStoreFor(client).latest(i.instrumentToken);
    return draftForInstrument(draft, q ? { ...i, lastPrice: q.lastPrice } : i);
  };
  const chooseInstrument = (i: Instrument): void => {
    edit(draftFor(i));
    quantityRef.current?.focus();
  };
  // A priced type starts from the last price, read once from the quotes store so the ticket
  // does not re-render on every tick.
  const chooseOrderType = (orderType: OrderType): void => {
    const quote = instrument ? quotesStoreFor(client).latest(instrument.instrumentToken) : undefined;
    edit(orderTypeChosen(draft, orderType, instrument, quote?.lastPrice));
  };
  // Linked, the ticket moves with its colour group: the quantity and a filled-in price start
  // afresh for the new instrument; the focus stays where the trader is.
  useTicketFollowsLink(draft.instrumentToken, (i) => edit(draftFor(i)));
  const onQuantityKey = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (!instrument || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    const q = parseNumber(draft.quantity) || 0; // "1,500" is 1500 here too, as the ticket judges it
    edit({ quantity: String(stepQuantity(q, e.key === 'ArrowUp' ? 1 : -1, instrument)) });
  };

  return {
    draft,
    draftEdited,
    ticketClosed,
    list,
    instrument,
    login,
    offers,
    evaluation,
    sending,
    status,
    session,
    symbolRef,
    quantityRef,
    bracket,
    margin,
    asks,
    asking,
    setAsking,
    typedQuantity: parseNumber(draft.quantity),
    edit,
    chooseInstrument,
    chooseOrderType,
    onQuantityKey,
  };
}
