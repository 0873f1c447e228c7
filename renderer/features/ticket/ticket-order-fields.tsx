import { useId } from 'react';
import type { OrderType } from '@shared/domain/order';
import { allowedOrderTypes, allowedProducts, allowedValidities } from '@shared/trading/rules';
import { Field } from '../layout/field';
import type { TicketField } from './ticket-model';
import type { TicketForm } from './use-ticket-form';

const ORDER_TYPES: readonly OrderType[] = ['MARKET', 'LIMIT', 'SL', 'SL-M'];

/** Picks `value` from `options` (the select's options come from the same list, so it always matches). */
function pick<T extends string>(options: readonly T[], value: string, fallback: T): T {
  return options.find((o) => o === value) ?? fallback;
}

/** The ticket's head: Buy or Sell, and the close button. */
export function TicketHead({ form }: { readonly form: TicketForm }) {
  const formId = useId();
  const side = form.draft.side;
  return (
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
              onChange={() => form.edit({ side: s })}
            />
            {s === 'BUY' ? 'Buy' : 'Sell'}
          </label>
        ))}
      </fieldset>
      <button type="button" className="icon" aria-label="Close ticket" onClick={form.ticketClosed}>
        ×
      </button>
    </div>
  );
}

/**
 * The order's terms: its type, product and validity (each option the broker offers, marked when
 * the shared trading rules do not allow it here), its price and its trigger price.
 */
export function TicketOrderFields({
  form,
  errorOf,
}: {
  readonly form: TicketForm;
  readonly errorOf: (f: TicketField) => string | undefined;
}) {
  const { draft, instrument, offers, evaluation, edit } = form;
  const offered = offers.products.map((p) => p.product);
  const products = instrument ? allowedProducts(instrument) : offered;
  const types = instrument ? allowedOrderTypes(instrument) : ORDER_TYPES;
  const validities = allowedValidities(draft.orderType);
  return (
    <>
      <div className="ticket__row">
        <Field label="Order type" error={errorOf('orderType')}>
          {(p) => (
            <select
              {...p}
              value={draft.orderType}
              onChange={(e) => form.chooseOrderType(pick(ORDER_TYPES, e.target.value, 'MARKET'))}
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
    </>
  );
}
