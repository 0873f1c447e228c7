import { useState } from 'react';
import { basketCleared, legRemoved } from '../../state/baskets-model';
import { Dialog } from '../layout/dialog';
import { Panel } from '../layout/panel';
import { LegOutcomes } from '../ticket/slice-offer';
import { UnconfirmedGuard } from '../ticket/unconfirmed-guard';
import { useSubmitLegs } from '../ticket/use-submit-legs';
import { BasketMarginError, BasketMarginSummary, useBasketMargin } from './basket-margin';
import { BasketLegsTable } from './basket-legs-table';
import { SavedBaskets } from './saved-baskets';
import { useBasket } from './use-basket';
import './basket.css';

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

  const placeAll = (options?: { readonly despiteUnconfirmed?: boolean }): void => {
    setConfirming(false);
    submit.submit(legs, options);
  };

  return (
    <Panel title="Basket" actions={<BasketMarginSummary view={margin} />}>
      <div className="table-scroll">
        <BasketLegsTable
          legs={legs}
          margin={margin}
          busy={submit.pending}
          onRemove={(n) => change((b) => legRemoved(b, n))}
        />
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
          <SavedBaskets basket={basket} change={change} busy={submit.pending} />
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
