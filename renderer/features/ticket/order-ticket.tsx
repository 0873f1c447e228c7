import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { BracketRequest } from '@shared/domain/bracket';
import type { Instrument } from '@shared/domain/instrument';
import type { OrderType, Variety } from '@shared/domain/order';
import { allowedOrderTypes, allowedProducts, allowedValidities, stepQuantity } from '@shared/trading/rules';
import { formatPrice } from '../../lib/format';
import { useConfirmOnEnter, useSettingsActions } from '../../state/settings-store';
import { useTicketActions, useTicketDraft, useTicketGeneration, useTicketOpen } from './ticket-store';
import { useInstruments } from '../instruments/queries';
import { quotesStoreFor } from '../market/quotes-store';
import { useQuote } from '../market/use-quotes';
import { useMarketSubscription } from '../market/use-market-subscription';
import { useMarketStatus } from '../market-status/queries';
import { sessionOf } from '../market-status/session-model';
import { AmoOffer } from './amo-offer';
import { LegOutcomes, SliceOffer } from './slice-offer';
import { TicketImpact, TicketTouch } from './ticket-book';
import { AddToBasket } from '../basket/add-to-basket';
import './ticket-market.css';
import { useSelectedInstrument } from './use-selected-instrument';
import { OrderOutcome } from './order-outcome';
import { RiskRefusal } from '../safety/risk-override';
import { SymbolCombobox } from './symbol-combobox';
import {
  draftForInstrument,
  evaluateTicket,
  orderTypeChosen,
  parseNumber,
  refusalErrors,
  type TicketField,
} from './ticket-model';
import { ConfirmOrder } from './confirm-order';
import { MarginSummary, useTicketMargin } from './margin-summary';
import { asksBeforeSending } from './send-asks';
import { SendAsk } from './send-ask';
import { exitsLeftOut } from './bracket-draft';
import { Field } from '../layout/field';
import { ReferencePrice } from './reference-price';
import { UnconfirmedGuard } from './unconfirmed-guard';
import { useTicketSending } from './use-ticket-sending';
import { GttFromTicket } from '../gtt/gtt-buttons';
import { sessionQueries } from '../session/queries';
import { useBrokerOffers } from '../session/use-broker-offers';
import { MarketProtectionNote } from './market-protection-note';
import { bracketState } from '../brackets/bracket-model';
import { BracketSection } from './bracket-section';
import { useTicketBracket } from './use-ticket-bracket';
import { TicketPriceSource } from './ticket-price-source';
import { useTicketFollowsLink } from '../workstation/use-ticket-follows-link';

const ORDER_TYPES: readonly OrderType[] = ['MARKET', 'LIMIT', 'SL', 'SL-M'];

/** A bracket's exits in the confirmation's words: "with stop-loss 1,480.00 (trailing ₹5) and target 1,530.00, as a bracket". */
function bracketWords(r: BracketRequest, tickSize: number | undefined): string {
  const trail = r.trail ? ` (trailing ${r.trail.by === 'points' ? `₹${r.trail.amount}` : `${r.trail.amount}%`})` : '';
  const legs = [
    r.stop ? `stop-loss ${formatPrice(r.stop.triggerPrice, tickSize)}${trail}` : null,
    r.target ? `target ${formatPrice(r.target.price, tickSize)}` : null,
  ].filter((x) => x !== null);
  return `with ${legs.join(' and ')}, as a bracket`;
}

/** Picks `value` from `options` (the select's options come from the same list, so it always matches). */
function pick<T extends string>(options: readonly T[], value: string, fallback: T): T {
  return options.find((o) => o === value) ?? fallback;
}

/**
 * The order ticket panel: the form when open, a "Buy (F1) / Sell (F2)" prompt when closed.
 */
export function OrderTicketPanel() {
  const open = useTicketOpen();
  const generation = useTicketGeneration();
  const { ticketOpened } = useTicketActions();
  const selected = useSelectedInstrument();
  if (!open) {
    return (
      <div className="ticket ticket--closed">
        <p className="muted">No ticket open.</p>
        <div className="form__buttons">
          <button type="button" className="buy-button" onClick={() => ticketOpened('BUY', selected)}>
            Buy (F1)
          </button>
          <button type="button" className="sell-button" onClick={() => ticketOpened('SELL', selected)}>
            Sell (F2)
          </button>
        </div>
      </div>
    );
  }
  return <OrderTicket key={generation} />;
}

/**
 * The order ticket: a form named "Order ticket" that applies the shared trading rules as the
 * trader types, shows the margin the order needs against what is available, and never leaves
 * the trader unsure whether an order went in: placed (order id and live status), refused (the
 * broker's reason next to the field it names), or not yet confirmed (the reference, until it is
 * settled). The submit logic and the outcome view are their own modules (`use-ticket-sending.ts`
 * for the variety and the legs, over `use-submit-order.ts` and `use-submit-legs.ts`;
 * `order-outcome.tsx`). The market it trades in is shown with it: the best bid and offer with the
 * spread and what a MARKET order would take from the book (`ticket-book.tsx`), the offer to place
 * an after-market order while the exchange is closed (`amo-offer.tsx`), and the offer to slice a
 * quantity above the freeze limit into legs (`slice-offer.tsx`, `use-submit-legs.ts`). Its Stop-loss,
 * target & size section sizes the order from a risk and can place it as a bracket main keeps
 * (`bracket-section.tsx`, `use-ticket-bracket.ts`; docs/brackets.md §In the ticket).
 */
export function OrderTicket() {
  const draft = useTicketDraft();
  const { draftEdited, ticketClosed } = useTicketActions();
  const { list, byToken } = useInstruments();
  const instrument = draft.instrumentToken === null ? undefined : byToken.get(draft.instrumentToken);
  const login = useQuery(sessionQueries.status()).data;
  const lastPrice = useQuote(instrument?.instrumentToken)?.lastPrice;
  const offers = useBrokerOffers();
  const evaluation = evaluateTicket(draft, instrument, login ? { ...login, ...offers } : undefined, lastPrice);
  const sending = useTicketSending(draft, instrument, evaluation, login, lastPrice);
  const { request, variety, single: submitter, legs, plan, sliceable, confirming, setConfirming } = sending;
  const confirmOnEnter = useConfirmOnEnter();
  const { confirmOnEnterToggled } = useSettingsActions();
  const client = useQueryClient();
  // `full`: the ticket reads the visible depth a MARKET order would take.
  useMarketSubscription('ticket', instrument ? [instrument.instrumentToken] : [], 'full');
  const status = useMarketStatus();
  const session = instrument ? sessionOf(status, instrument.exchange) : undefined;
  const symbolRef = useRef<HTMLInputElement>(null);
  const quantityRef = useRef<HTMLInputElement>(null);
  const formId = useId();
  // The Stop-loss, target & size section (docs/brackets.md §In the ticket); which answer shows.
  // A size from risk is an edit of the quantity like any (the section's own refusal is reset by it).
  const bracket = useTicketBracket(draft, instrument, request, (q) => {
    sending.edited();
    draftEdited({ quantity: String(q) });
  });
  const bracketSubmit = bracket.submitter;
  const bracketRequest = bracket.request;
  const [sentBracket, setSentBracket] = useState(false);
  const margin = useTicketMargin(evaluation.request);
  // Questions before sending (exits typed but left out, a margin the account lacks): shown
  // until answered; any edit takes them away.
  const asks = asksBeforeSending({ exitsLeftOut: exitsLeftOut(bracket.draft), margin: margin.check });
  const [asking, setAsking] = useState(false);
  const canPlace = bracket.draft.on ? bracketRequest !== null : request !== null;

  // Focus where the trader types next: the symbol on a blank ticket, else the quantity. Runs
  // once per mount; the panel remounts the form for each newly opened ticket.
  const startsBlank = useRef(draft.instrumentToken === null);
  useEffect(() => {
    (startsBlank.current ? symbolRef : quantityRef).current?.focus();
  }, []);

  // A refusal's reason, next to the field it names.
  const lastOutcome = sentBracket ? bracketSubmit.outcome : submitter.outcome;
  const brokerErrors = refusalErrors(lastOutcome.kind === 'refused' ? lastOutcome.error : null);
  // A blank ticket is not a mistake: "Choose an instrument" in red before the trader has typed
  // anything would be noise (Place order is disabled, and the box's placeholder says what to do).
  const pristine = draft.instrumentToken === null;
  const errorOf = (f: TicketField): string | undefined =>
    (pristine && f === 'symbol' ? undefined : evaluation.errors[f]) ?? brokerErrors[f];

  const typedQuantity = parseNumber(draft.quantity);
  const { placeLegs } = sending;
  // Place order: the plain order, or with the section's bracket ticked, the bracket main keeps.
  // `answered`: the trader saw the ticket's questions and chose Place anyway.
  const submitOrder = (answered = false): void => {
    if (!answered && asks.length > 0) {
      setConfirming(false);
      setAsking(true);
      return;
    }
    setAsking(false);
    if (bracket.draft.on) {
      if (!bracketRequest) return;
      setConfirming(false);
      setSentBracket(true);
      bracketSubmit.submit(bracketRequest);
      return;
    }
    setSentBracket(false);
    sending.submitOrder();
  };
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    submitOrder();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>): void => {
    if (e.key === 'Escape') {
      e.preventDefault();
      if (submitter.warning) submitter.dismissWarning();
      else if (asking) setAsking(false);
      else if (confirming) setConfirming(false);
      else ticketClosed();
      return;
    }
    if (e.key !== 'Enter' || e.target instanceof HTMLButtonElement) return;
    e.preventDefault();
    if (!canPlace || submitter.pending || legs.pending || bracketSubmit.pending) return;
    if (confirmOnEnter) setConfirming(true);
    else submitOrder();
  };
  const edit = (patch: Parameters<typeof draftEdited>[0]): void => {
    setAsking(false);
    sending.edited();
    bracketSubmit.edited();
    draftEdited(patch);
  };
  const chooseInstrument = (i: Instrument): void => {
    // Start a LIMIT at the live price, not the one the instrument list was fetched with.
    const q = quotesStoreFor(client).latest(i.instrumentToken);
    edit(draftForInstrument(draft, q ? { ...i, lastPrice: q.lastPrice } : i));
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
  useTicketFollowsLink(draft.instrumentToken, (i) => {
    const q = quotesStoreFor(client).latest(i.instrumentToken);
    edit(draftForInstrument(draft, q ? { ...i, lastPrice: q.lastPrice } : i));
  });
  const onQuantityKey = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (!instrument || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    const q = parseNumber(draft.quantity) || 0; // "1,500" is 1500 here too, as the ticket judges it
    edit({ quantity: String(stepQuantity(q, e.key === 'ArrowUp' ? 1 : -1, instrument)) });
  };

  const offered = offers.products.map((p) => p.product);
  const products = instrument ? allowedProducts(instrument) : offered;
  const types = instrument ? allowedOrderTypes(instrument) : ORDER_TYPES;
  const validities = allowedValidities(draft.orderType);
  const side = draft.side;

  return (
    <form
      aria-label="Order ticket"
      className={`ticket ticket--${side.toLowerCase()}`}
      onSubmit={onSubmit}
      onKeyDown={onKeyDown}
      noValidate
    >
      <div className="ticket__head">
        <fieldset className="side-toggle">
          <legend>Side</legend>
          {(['BUY', 'SELL'] as const).map((s) => (
            <label key={s} className={`side side--${s.toLowerCase()}${side === s ? ' is-on' : ''}`}>
              <input
                type="radio"
                name={`${formId}-side`}
                value={s}
                checked={side === s}
                onChange={() => edit({ side: s })}
              />
              {s === 'BUY' ? 'Buy' : 'Sell'}
            </label>
          ))}
        </fieldset>
        <button type="button" className="icon" aria-label="Close ticket" onClick={ticketClosed}>
          ×
        </button>
      </div>

      {/* The fields scroll; Place and the answer stay pinned under them (docs/renderer.md §Layout on small screens). */}
      <div className="ticket__fields">
        <SymbolCombobox
          label="Symbol"
          instruments={list}
          value={instrument}
          onChoose={chooseInstrument}
          error={errorOf('symbol')}
          inputRef={symbolRef}
        />
        {instrument ? (
          <div className="ticket__refline">
            <ReferencePrice instrument={instrument} />
            <TicketTouch instrument={instrument} />
          </div>
        ) : null}

        <Field
          label="Quantity"
          error={sliceable ? undefined : errorOf('quantity')}
          hint={instrument && instrument.lotSize > 1 ? `lot ${instrument.lotSize}` : undefined}
        >
          {(p) => (
            <input
              {...p}
              ref={quantityRef}
              inputMode="numeric"
              autoComplete="off"
              value={draft.quantity}
              onChange={(e) => edit({ quantity: e.target.value })}
              onKeyDown={onQuantityKey}
            />
          )}
        </Field>
        {instrument ? (
          <TicketImpact
            instrument={instrument}
            side={side}
            orderType={draft.orderType}
            quantity={Number.isNaN(typedQuantity) ? null : typedQuantity}
          />
        ) : null}
        {sliceable && plan && instrument ? (
          <SliceOffer
            quantity={typedQuantity}
            freeze={instrument.freezeQuantity}
            plan={plan}
            disabled={legs.pending || submitter.pending}
            onPlace={() => {
              setSentBracket(false);
              placeLegs();
            }}
          />
        ) : null}

        <div className="ticket__row">
          <Field label="Order type" error={errorOf('orderType')}>
            {(p) => (
              <select
                {...p}
                value={draft.orderType}
                onChange={(e) => chooseOrderType(pick(ORDER_TYPES, e.target.value, 'MARKET'))}
              >
                {ORDER_TYPES.map((t) => (
                  <option key={t} value={t} disabled={!types.includes(t)}>
                    {t}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Product" error={errorOf('product')}>
            {(p) => (
              <select
                {...p}
                value={draft.product}
                onChange={(e) => edit({ product: pick(offered, e.target.value, draft.product), productChosen: true })}
              >
                {offers.products.map((t) => (
                  <option key={t.product} value={t.product}>
                    {t.label}
                    {products.includes(t.product) ? '' : ' (not for this instrument)'}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Validity" error={errorOf('validity')}>
            {(p) => (
              <select
                {...p}
                value={draft.validity}
                onChange={(e) => edit({ validity: pick(offers.validities, e.target.value, draft.validity) })}
              >
                {offers.validities.map((t) => (
                  <option key={t} value={t}>
                    {t}
                    {validities.includes(t) ? '' : ` (not for ${draft.orderType})`}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>

        <div className="ticket__row">
          <Field label="Price" error={evaluation.priceEnabled ? errorOf('price') : undefined}>
            {(p) => (
              <input
                {...p}
                inputMode="decimal"
                autoComplete="off"
                disabled={!evaluation.priceEnabled}
                placeholder={evaluation.priceEnabled ? '' : 'Market'}
                value={evaluation.priceEnabled ? draft.price : ''}
                onChange={(e) => edit({ price: e.target.value })}
              />
            )}
          </Field>
          <Field label="Trigger price" error={evaluation.triggerEnabled ? errorOf('triggerPrice') : undefined}>
            {(p) => (
              <input
                {...p}
                inputMode="decimal"
                autoComplete="off"
                disabled={!evaluation.triggerEnabled}
                value={evaluation.triggerEnabled ? draft.triggerPrice : ''}
                onChange={(e) => edit({ triggerPrice: e.target.value })}
              />
            )}
          </Field>
        </div>

        <TicketPriceSource draft={draft} instrument={instrument} onPatch={(p) => draftEdited(p)} />

        {login?.marketProtection !== undefined ? (
          <MarketProtectionNote orderType={draft.orderType} protection={login.marketProtection} />
        ) : null}

        <BracketSection
          draft={bracket.draft}
          evaluation={bracket.evaluation}
          refusals={bracketSubmit.fieldErrors}
          instrument={instrument}
          quantity={typedQuantity}
          product={draft.product}
          expanded={bracket.open}
          onExpand={bracket.setOpen}
          onEdit={(patch) => {
            setAsking(false);
            bracket.edit(patch);
          }}
          onUseQuantity={(q) => edit({ quantity: String(q) })}
        />

        {instrument ? (
          <AmoOffer
            session={session}
            now={status?.now}
            variety={variety}
            onVariety={sending.chooseVariety}
            refusal={brokerErrors.variety}
            {...(evaluation.request && !submitter.pending
              ? {
                  onPlaceAs: (v: Variety) => {
                    setSentBracket(false);
                    sending.placeAs(v);
                  },
                }
              : {})}
          />
        ) : null}
      </div>

      <div className="ticket__foot">
        <MarginSummary margin={margin} />
        {confirming && request ? (
          <ConfirmOrder
            request={request}
            extra={bracketRequest ? bracketWords(bracketRequest, instrument?.tickSize) : null}
            onConfirm={() => submitOrder()}
            onBack={() => setConfirming(false)}
          />
        ) : null}

        {asking && asks.length > 0 ? (
          <SendAsk
            label="Before sending"
            placeLabel="Place anyway"
            onPlace={() => submitOrder(true)}
            onBack={() => setAsking(false)}
          >
            {asks.map((a) => (
              <p key={a}>{a}</p>
            ))}
          </SendAsk>
        ) : null}

        {submitter.warning ? (
          <UnconfirmedGuard
            warning={submitter.warning}
            onPlace={() => submitter.submit({ despiteUnconfirmed: true })}
            onBack={submitter.dismissWarning}
          />
        ) : null}
        {legs.warning ? (
          <UnconfirmedGuard
            warning={legs.warning}
            onPlace={() => placeLegs({ despiteUnconfirmed: true })}
            onBack={legs.dismissWarning}
          />
        ) : null}

        <div className="form__buttons">
          <button
            type="submit"
            className={side === 'BUY' ? 'buy-button' : 'sell-button'}
            disabled={!canPlace || submitter.pending || legs.pending || bracketSubmit.pending}
            aria-describedby={`${formId}-outcome`}
          >
            {submitter.pending || bracketSubmit.pending
              ? 'Placing…'
              : bracket.draft.on
                ? 'Place bracket'
                : 'Place order'}
          </button>
          <AddToBasket order={request} />
          <GttFromTicket instrument={instrument} draft={draft} />
          {variety === 'amo' ? <span className="badge st-pending">AMO</span> : null}
          <label className="check">
            <input type="checkbox" checked={confirmOnEnter} onChange={confirmOnEnterToggled} />
            Confirm on Enter
          </label>
        </div>

        <OrderOutcome
          outcome={
            sentBracket ? bracketSubmit.outcome : sending.lastSent === 'single' ? submitter.outcome : { kind: 'idle' }
          }
          id={`${formId}-outcome`}
        />
        {sentBracket && bracketSubmit.bracket ? (
          <p className="small" data-testid="ticket-bracket">
            Bracket: {bracketState(bracketSubmit.bracket)} — followed in the Brackets tab
          </p>
        ) : null}
        {(sentBracket || sending.lastSent === 'single') && lastOutcome.kind === 'refused' ? (
          <RiskRefusal
            error={lastOutcome.error}
            onPlaceAnyway={() =>
              sentBracket && bracketRequest
                ? bracketSubmit.submit(bracketRequest, { riskOverride: true })
                : submitter.submit({ riskOverride: true })
            }
          />
        ) : null}
        {!sentBracket && sending.lastSent === 'legs' && legs.legs ? <LegOutcomes legs={legs.legs} /> : null}
      </div>
    </form>
  );
}
