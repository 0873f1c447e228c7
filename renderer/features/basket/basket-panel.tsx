import { useState } from 'react';
import { formatPrice, formatQty, formatRupees } from '../../lib/format';
import {
  basketCleared,
  basketDeleted,
  basketLoaded,
  basketNameProblem,
  basketSaved,
  legRemoved,
} from '../../state/baskets-model';
import { Dialog } from '../layout/dialog';
import { Panel } from '../layout/panel';
import { EmptyRow } from '../layout/panel-states';
import { LegOutcomes } from '../ticket/slice-offer';
import { UnconfirmedGuard } from '../ticket/unconfirmed-guard';
import { useSubmitLegs } from '../ticket/use-submit-legs';
import { BasketMarginError, BasketMarginSummary, type BasketMarginView, useBasketMargin } from './basket-margin';
import { useBasket } from './use-basket';
import './basket.css';
import { ActionsHeader } from '../layout/record-table';

/** Leg `n`'s own margin while the basket's figure is current, else "–". */
function legMargin(view: BasketMarginView, n: number): string {
  const total = view.state === 'fresh' ? view.margin?.legs[n]?.total : undefined;
  return total === undefined ? '–' : formatRupees(total);
}

/**
 * The basket (docs/desk.md §Baskets): orders added from the ticket or the option chain, not sent,
 * with the basket's margin (hedging counted) and each leg's; Place all sends them one after
 * another, each its own exactly-once order with its own outcome (placed, not placed, or not yet
 * confirmed), and none after a leg that did not go in. Saved and loaded by name, per profile.
 */
export function BasketPanel() {
  const { basket, change } = useBasket();
  const legs = basket.legs;
  const margin = useBasketMargin(legs);
  const submit = useSubmitLegs();
  const [confirming, setConfirming] = useState(false);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [chosen, setChosen] = useState('');

  const placeAll = (options?: { readonly despiteUnconfirmed?: boolean }): void => {
    setConfirming(false);
    submit.submit(legs, options);
  };
  const save = (): void => {
    const problem = basketNameProblem(name) ?? (legs.length === 0 ? 'Add a leg first' : null);
    setNameError(problem);
    if (problem === null) {
      change((b) => basketSaved(b, name));
      setChosen(name.trim());
      setName('');
    }
  };
  const picked = basket.saved.find((s) => s.name === chosen) ? chosen : (basket.saved[0]?.name ?? '');

  return (
    <Panel title="Basket" actions={<BasketMarginSummary view={margin} />}>
      <div className="table-scroll">
        <table aria-label="Basket legs" className="grid">
          <thead>
            <tr>
              <th>#</th>
              <th>Symbol</th>
              <th>Side</th>
              <th className="num">Qty</th>
              <th>Type</th>
              <th className="num">Price</th>
              <th className="num">Trigger</th>
              <th>Product</th>
              <th className="num">Margin</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {legs.length === 0 ? <EmptyRow colSpan={10}>Add orders from the ticket (Add to basket)</EmptyRow> : null}
            {legs.map((o, n) => (
              <tr key={n}>
                <td>{n + 1}</td>
                <td className="sym">
                  {o.tradingsymbol} <span className="muted small">{o.exchange}</span>
                </td>
                <td className={o.transactionType === 'BUY' ? 'buy' : 'sell'}>{o.transactionType}</td>
                <td className="num">{formatQty(o.quantity)}</td>
                <td>{o.orderType}</td>
                <td className="num">{formatPrice(o.price)}</td>
                <td className="num">{formatPrice(o.triggerPrice)}</td>
                <td>{o.product}</td>
                <td className="num" data-testid="leg-margin">
                  {legMargin(margin, n)}
                </td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="mini"
                    aria-label={`Remove leg ${n + 1}`}
                    disabled={submit.pending}
                    onClick={() => change((b) => legRemoved(b, n))}
                  >
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <BasketMarginError view={margin} />
        <div className="basket__bar">
          <button
            type="button"
            className="buy-button"
            disabled={legs.length === 0 || submit.pending}
            onClick={() => setConfirming(true)}
          >
            {submit.pending ? 'Placing…' : `Place all ${legs.length} legs`}
          </button>
          <button type="button" disabled={legs.length === 0 || submit.pending} onClick={() => change(basketCleared)}>
            Clear
          </button>
          <input
            aria-label="Basket name"
            placeholder="Name…"
            value={name}
            aria-invalid={nameError !== null}
            onChange={(e) => setName(e.target.value)}
          />
          <button type="button" onClick={save}>
            Save
          </button>
          {basket.saved.length > 0 ? (
            <>
              <select aria-label="Saved baskets" value={picked} onChange={(e) => setChosen(e.target.value)}>
                {basket.saved.map((s) => (
                  <option key={s.name} value={s.name}>
                    {s.name} ({s.legs.length})
                  </option>
                ))}
              </select>
              <button type="button" disabled={submit.pending} onClick={() => change((b) => basketLoaded(b, picked))}>
                Load
              </button>
              <button type="button" onClick={() => change((b) => basketDeleted(b, picked))}>
                Delete
              </button>
            </>
          ) : null}
          {nameError ? (
            <span role="alert" className="inline-error small">
              {nameError}
            </span>
          ) : null}
        </div>
        {submit.legs ? <LegOutcomes legs={submit.legs} /> : null}
        {submit.heldBack ? (
          <p role="alert" className="inline-error small">
            {submit.heldBack}
          </p>
        ) : null}
      </div>
      {confirming ? (
        <Dialog title={`Place ${legs.length} orders?`} onClose={() => setConfirming(false)}>
          <p>
            Each leg is sent as its own order, one after another; a sell after a buy waits for that buy to fill. A leg
            that is not placed stops the ones after it.
          </p>
          <div className="form__buttons">
            <button type="button" className="buy-button" data-autofocus onClick={() => placeAll()}>
              Place {legs.length} orders
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Back
            </button>
          </div>
        </Dialog>
      ) : null}
      {submit.warning ? (
        <UnconfirmedGuard
          warning={submit.warning}
          onPlace={() => placeAll({ despiteUnconfirmed: true })}
          onBack={submit.dismissWarning}
        />
      ) : null}
    </Panel>
  );
}
