import { AmoOffer } from './amo-offer';
import { SliceOffer } from './slice-offer';
import { TicketImpact, TicketTouch } from './ticket-book';
import './ticket-market.css';
import { useSelectedInstrument } from './use-selected-instrument';
import { SymbolCombobox } from './symbol-combobox';
import { Field } from '../layout/field';
import { ReferencePrice } from './reference-price';
import { MarketProtectionNote } from './market-protection-note';
import { BracketSection } from './bracket-section';
import { TicketPriceSource } from './ticket-price-source';
import { useTicketActions, useTicketGeneration, useTicketOpen } from './ticket-store';
import { useTicketForm } from './use-ticket-form';
import { useTicketSubmit } from './use-ticket-submit';
import { TicketHead, TicketOrderFields } from './ticket-order-fields';
import { TicketFoot } from './ticket-foot';

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
 * settled). Its form model is `use-ticket-form.ts`, its submit `use-ticket-submit.ts` (over
 * `use-ticket-sending.ts` for the variety and the legs, `use-submit-order.ts` and
 * `use-submit-legs.ts`), its order terms and head `ticket-order-fields.tsx`, its foot with Place
 * and the answer `ticket-foot.tsx` (the outcome view `order-outcome.tsx`). The market it trades in is shown with it: the best bid and offer with the
 * spread and what a MARKET order would take from the book (`ticket-book.tsx`), the offer to place
 * an after-market order while the exchange is closed (`amo-offer.tsx`), and the offer to slice a
 * quantity above the freeze limit into legs (`slice-offer.tsx`, `use-submit-legs.ts`). Its Stop-loss,
 * target & size section sizes the order from a risk and can place it as a bracket main keeps
 * (`bracket-section.tsx`, `use-ticket-bracket.ts`; docs/brackets.md §In the ticket).
 */
export function OrderTicket() {
  const form = useTicketForm();
  const submit = useTicketSubmit(form);
  const { draft, instrument, login, evaluation, sending, bracket, edit, typedQuantity } = form;
  const { variety, single: submitter, legs, plan, sliceable } = sending;
  const { errorOf, brokerErrors } = submit;

  return (
    <form
      aria-label="Order ticket"
      className={`ticket ticket--${draft.side.toLowerCase()}`}
      onSubmit={submit.onSubmit}
      onKeyDown={submit.onKeyDown}
      noValidate
    >
      <TicketHead form={form} />

      {/* The fields scroll; Place and the answer stay pinned under them (docs/renderer.md §Layout on small screens). */}
      <div className="ticket__fields">
        <SymbolCombobox
          label="Symbol"
          instruments={form.list}
          value={instrument}
          onChoose={form.chooseInstrument}
          error={errorOf('symbol')}
          inputRef={form.symbolRef}
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
              ref={form.quantityRef}
              inputMode="numeric"
              autoComplete="off"
              value={draft.quantity}
              onChange={(e) => edit({ quantity: e.target.value })}
              onKeyDown={form.onQuantityKey}
            />
          )}
        </Field>
        {instrument ? (
          <TicketImpact
            instrument={instrument}
            side={draft.side}
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
            onPlace={submit.placeLegs}
          />
        ) : null}

        <TicketOrderFields form={form} errorOf={errorOf} />

        <TicketPriceSource draft={draft} instrument={instrument} onPatch={(p) => form.draftEdited(p)} />

        {login?.marketProtection !== undefined ? (
          <MarketProtectionNote orderType={draft.orderType} protection={login.marketProtection} />
        ) : null}

        <BracketSection
          draft={bracket.draft}
          evaluation={bracket.evaluation}
          refusals={bracket.submitter.fieldErrors}
          instrument={instrument}
          quantity={typedQuantity}
          product={draft.product}
          expanded={bracket.open}
          onExpand={bracket.setOpen}
          onEdit={(patch) => {
            form.setAsking(false);
            bracket.edit(patch);
          }}
          onUseQuantity={(q) => edit({ quantity: String(q) })}
        />

        {instrument ? (
          <AmoOffer
            session={form.session}
            now={form.status?.now}
            variety={variety}
            onVariety={sending.chooseVariety}
            refusal={brokerErrors.variety}
            {...(evaluation.request && !submitter.pending ? { onPlaceAs: submit.placeAs } : {})}
          />
        ) : null}
      </div>

      <TicketFoot form={form} submit={submit} />
    </form>
  );
}
