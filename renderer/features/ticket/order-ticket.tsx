import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { Instrument } from '../../../shared/domain/instrument';
import type { OrderRequest, OrderType, Product, Validity, Variety } from '../../../shared/domain/order';
import {
  allowedOrderTypes,
  allowedProducts,
  allowedValidities,
  stepQuantity,
  takesPrice,
} from '../../../shared/trading/rules';
import { roundToTick } from '../../../shared/trading/money';
import { describeError } from '../../lib/describe-error';
import { formatPrice, formatQty, formatRupees } from '../../lib/format';
import { useConfirmOnEnter, useSettingsActions } from '../../state/settings-store';
import { useTicketActions, useTicketDraft, useTicketGeneration, useTicketOpen } from '../../state/ticket-store';
import { useInstruments } from '../instruments/queries';
import { LivePrice } from '../market/live-price';
import { marketQueries, usePreviousClose } from '../market/queries';
import { changeFrom } from '../market/quote-cache';
import { useMarketSubscription } from '../market/use-market-subscription';
import { useQuote } from '../market/use-quotes';
import { useMarketStatus } from '../market-status/queries';
import { sessionOf } from '../market-status/session-model';
import { AmoOffer } from './amo-offer';
import { slicePlan } from './slice-model';
import { LegOutcomes, SliceOffer } from './slice-offer';
import { TicketImpact, TicketTouch } from './ticket-book';
import { useSelectedInstrument } from './use-selected-instrument';
import { useSubmitLegs } from './use-submit-legs';
import { refusalReason } from '../placements/placement-model';
import { portfolioQueries } from '../portfolio/queries';
import { OrderOutcome } from './order-outcome';
import { SymbolCombobox } from './symbol-combobox';
import {
  draftForInstrument,
  evaluateTicket,
  parseNumber,
  ticketFieldOf,
  type TicketErrors,
  type TicketField,
} from './ticket-model';
import { useDebounced } from './use-debounced';
import './ticket-market.css';
import { UnconfirmedGuard } from './unconfirmed-guard';
import { useSubmitOrder } from './use-submit-order';

const ORDER_TYPES: readonly OrderType[] = ['MARKET', 'LIMIT', 'SL', 'SL-M'];
const PRODUCTS: readonly Product[] = ['MIS', 'CNC', 'NRML'];
const VALIDITIES: readonly Validity[] = ['DAY', 'IOC'];

/** A placeholder order for the disabled margin query (never sent: `enabled` is false). */
const NO_ORDER: OrderRequest = {
  exchange: 'NSE',
  tradingsymbol: '-',
  transactionType: 'BUY',
  quantity: 1,
  orderType: 'MARKET',
  product: 'MIS',
  validity: 'DAY',
};

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
 * settled). The submit logic and the outcome view are their own modules (`use-submit-order.ts`,
 * `order-outcome.tsx`). The market it trades in is shown with it: the best bid and offer with the
 * spread and what a MARKET order would take from the book (`ticket-book.tsx`), the offer to place
 * an after-market order while the exchange is closed (`amo-offer.tsx`), and the offer to slice a
 * quantity above the freeze limit into legs (`slice-offer.tsx`, `use-submit-legs.ts`).
 */
export function OrderTicket() {
  const draft = useTicketDraft();
  const { draftEdited, ticketClosed } = useTicketActions();
  const { list, byToken } = useInstruments();
  const instrument = draft.instrumentToken === null ? undefined : byToken.get(draft.instrumentToken);
  const evaluation = evaluateTicket(draft, instrument);
  const [variety, setVariety] = useState<Variety>('regular');
  const withVariety = (r: OrderRequest | null): OrderRequest | null => (r && variety === 'amo' ? { ...r, variety } : r);
  const request = withVariety(evaluation.request);
  const confirmOnEnter = useConfirmOnEnter();
  const { confirmOnEnterToggled } = useSettingsActions();
  const submitter = useSubmitOrder(request);
  const legs = useSubmitLegs();
  const client = useQueryClient();
  // `full`: the ticket reads the visible depth a MARKET order would take.
  useMarketSubscription('ticket', instrument ? [instrument.instrumentToken] : [], 'full');
  const status = useMarketStatus();
  const session = instrument ? sessionOf(status, instrument.exchange) : undefined;
  const [confirming, setConfirming] = useState(false);
  // Which answer the ticket shows: its last single order's, or its last sliced order's legs.
  const [lastSent, setLastSent] = useState<'single' | 'legs'>('single');
  const symbolRef = useRef<HTMLInputElement>(null);
  const quantityRef = useRef<HTMLInputElement>(null);
  const formId = useId();

  // Focus where the trader types next: the symbol on a blank ticket, else the quantity. Runs
  // once per mount; the panel remounts the form for each newly opened ticket.
  const startsBlank = useRef(draft.instrumentToken === null);
  useEffect(() => {
    (startsBlank.current ? symbolRef : quantityRef).current?.focus();
  }, []);

  const marginFor = useDebounced(evaluation.request, 250);
  const margin = useQuery({ ...portfolioQueries.margin(marginFor ?? NO_ORDER), enabled: marginFor !== null });
  const funds = useQuery(portfolioQueries.funds());

  // A refusal's reason, next to the field it names (main reports it camelCase, maybe `order.`-prefixed).
  const refusal = submitter.outcome.kind === 'refused' ? submitter.outcome.error : null;
  const brokerErrors: TicketErrors = {};
  for (const f of refusal?.fields ?? []) {
    const field = ticketFieldOf(f.field);
    if (field) brokerErrors[field] ??= refusalReason(f.message);
  }
  const brokerField = ticketFieldOf(refusal?.field);
  if (refusal && brokerField) brokerErrors[brokerField] ??= refusalReason(refusal.message);
  // A blank ticket is not a mistake: "Choose an instrument" in red before the trader has typed
  // anything would be noise (Place order is disabled, and the box's placeholder says what to do).
  const pristine = draft.instrumentToken === null;
  const errorOf = (f: TicketField): string | undefined =>
    (pristine && f === 'symbol' ? undefined : evaluation.errors[f]) ?? brokerErrors[f];

  // Above the freeze limit: the legs, each judged as its own order, offered only when every one
  // of them could be placed (any other mistake is shown as usual first).
  const typedQuantity = parseNumber(draft.quantity);
  const plan = instrument ? slicePlan(typedQuantity, instrument) : null;
  const legOrders = plan?.legs.map((q) =>
    withVariety(evaluateTicket({ ...draft, quantity: String(q) }, instrument).request),
  );
  const sliceable = plan !== null && legOrders !== undefined && legOrders.every((o) => o !== null);
  const placeLegs = (options?: { despiteUnconfirmed?: boolean }): void => {
    if (!sliceable || !legOrders) return;
    setConfirming(false);
    setLastSent('legs');
    legs.submit(
      legOrders.filter((o): o is OrderRequest => o !== null),
      options,
    );
  };
  const chooseVariety = (v: Variety): void => {
    submitter.edited();
    setConfirming(false);
    setVariety(v);
  };
  // The broker refused the last order over its variety: place the same order as the other one.
  const placeAs = (v: Variety): void => {
    if (!evaluation.request) return;
    setVariety(v);
    setConfirming(false);
    setLastSent('single');
    submitter.submit({ order: v === 'amo' ? { ...evaluation.request, variety: 'amo' } : evaluation.request });
  };

  const submitOrder = (): void => {
    setConfirming(false);
    setLastSent('single');
    submitter.submit();
  };
  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    submitOrder();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>): void => {
    if (e.key === 'Escape') {
      e.preventDefault();
      if (submitter.warning) submitter.dismissWarning();
      else if (confirming) setConfirming(false);
      else ticketClosed();
      return;
    }
    if (e.key !== 'Enter' || e.target instanceof HTMLButtonElement) return;
    e.preventDefault();
    if (!request || submitter.pending || legs.pending) return;
    if (confirmOnEnter) setConfirming(true);
    else submitOrder();
  };
  const edit = (patch: Parameters<typeof draftEdited>[0]): void => {
    submitter.edited();
    setConfirming(false);
    draftEdited(patch);
  };
  const chooseInstrument = (i: Instrument): void => {
    // Start a LIMIT at the live price, not the one the instrument list was fetched with.
    const q = client.getQueryData(marketQueries.quotes().queryKey)?.[i.instrumentToken];
    edit(draftForInstrument(draft, q ? { ...i, lastPrice: q.lastPrice } : i));
    quantityRef.current?.focus();
  };
  // Switching to a priced type with no price starts from the last price (as broker terminals
  // do), read once from the quotes cache so the ticket does not re-render on every tick.
  const chooseOrderType = (orderType: OrderType): void => {
    const quote = instrument
      ? client.getQueryData(marketQueries.quotes().queryKey)?.[instrument.instrumentToken]
      : undefined;
    const ltp = quote?.lastPrice ?? instrument?.lastPrice ?? 0;
    const fill = instrument && takesPrice(orderType) && draft.price.trim() === '' && ltp > 0;
    edit(fill ? { orderType, price: String(roundToTick(ltp, instrument.tickSize)) } : { orderType });
  };
  const onQuantityKey = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (!instrument || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    const q = Number(draft.quantity) || 0;
    edit({ quantity: String(stepQuantity(q, e.key === 'ArrowUp' ? 1 : -1, instrument)) });
  };

  const products = instrument ? allowedProducts(instrument) : PRODUCTS;
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
          onPlace={() => placeLegs()}
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
              onChange={(e) => edit({ product: pick(PRODUCTS, e.target.value, 'MIS'), productChosen: true })}
            >
              {PRODUCTS.map((t) => (
                <option key={t} value={t}>
                  {t}
                  {products.includes(t) ? '' : ' (not for this instrument)'}
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
              onChange={(e) => edit({ validity: pick(VALIDITIES, e.target.value, 'DAY') })}
            >
              {VALIDITIES.map((t) => (
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

      <dl className="ticket__margin" aria-label="Margin">
        <div>
          <dt>Required</dt>
          <dd data-testid="margin-required">
            {evaluation.request === null
              ? '–'
              : margin.data
                ? formatRupees(margin.data.total)
                : margin.error
                  ? describeError(margin.error)
                  : '…'}
          </dd>
        </div>
        <div>
          <dt>Available</dt>
          <dd data-testid="margin-available">{funds.data ? formatRupees(funds.data.availableMargin) : '–'}</dd>
        </div>
      </dl>

      {instrument ? (
        <AmoOffer
          session={session}
          now={status?.now}
          variety={variety}
          onVariety={chooseVariety}
          refusal={brokerErrors.variety}
          {...(evaluation.request && !submitter.pending ? { onPlaceAs: placeAs } : {})}
        />
      ) : null}

      {confirming && request ? (
        <div className="ticket__confirm" role="group" aria-label="Confirm order">
          <p>
            {request.transactionType} {formatQty(request.quantity)} {request.tradingsymbol} {request.orderType}
            {request.price ? ` @ ${formatPrice(request.price)}` : ''}
            {request.triggerPrice ? ` trigger ${formatPrice(request.triggerPrice)}` : ''} · {request.product} ·{' '}
            {request.validity}
            {request.variety === 'amo' ? ' · AMO' : ''}?
          </p>
          <div className="form__buttons">
            <ConfirmButton onConfirm={submitOrder} />
            <button type="button" onClick={() => setConfirming(false)}>
              Back
            </button>
          </div>
        </div>
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
          disabled={!request || submitter.pending || legs.pending}
          aria-describedby={`${formId}-outcome`}
        >
          {submitter.pending ? 'Placing…' : 'Place order'}
        </button>
        {variety === 'amo' ? <span className="badge st-pending">AMO</span> : null}
        <label className="check">
          <input type="checkbox" checked={confirmOnEnter} onChange={confirmOnEnterToggled} />
          Confirm on Enter
        </label>
      </div>

      <OrderOutcome outcome={lastSent === 'single' ? submitter.outcome : { kind: 'idle' }} id={`${formId}-outcome`} />
      {lastSent === 'legs' && legs.legs ? <LegOutcomes legs={legs.legs} /> : null}
    </form>
  );
}

/** The live last price the trader prices against, with the day's change; stale when it stops. */
function ReferencePrice({ instrument }: { readonly instrument: Instrument }) {
  const quote = useQuote(instrument.instrumentToken);
  const close = usePreviousClose(instrument.instrumentToken);
  const chg = changeFrom(close, quote?.lastPrice ?? instrument.lastPrice);
  return (
    <div className="ticket__ref" aria-label="Reference price">
      <span className="muted">LTP</span>
      <LivePrice
        quote={quote}
        fallback={instrument.lastPrice}
        tickSize={instrument.tickSize}
        testId="ticket-ltp"
        className="ticket__ltp"
      />
      {chg ? (
        <span className={chg.abs > 0 ? 'up' : chg.abs < 0 ? 'down' : 'muted'}>
          {chg.abs > 0 ? '▲' : chg.abs < 0 ? '▼' : ''} {Math.abs(chg.pct).toFixed(2)}%
        </span>
      ) : null}
    </div>
  );
}

/** Focused as soon as it appears, so a second Enter confirms. */
function ConfirmButton({ onConfirm }: { readonly onConfirm: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <button ref={ref} type="button" className="primary" onClick={onConfirm}>
      Confirm
    </button>
  );
}

/** A labelled control with its error right under it (and tied to it for screen readers). */
function Field(props: {
  readonly label: string;
  readonly error?: string;
  readonly hint?: string;
  readonly children: (p: { id: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <span className="field__label">
        <label htmlFor={id}>{props.label}</label>
        {props.hint ? <span className="muted small"> · {props.hint}</span> : null}
      </span>
      {props.children({
        id,
        'aria-invalid': props.error ? true : undefined,
        'aria-describedby': props.error ? errorId : undefined,
      })}
      {props.error ? (
        <span className="field-error" id={errorId}>
          {props.error}
        </span>
      ) : null}
    </div>
  );
}
