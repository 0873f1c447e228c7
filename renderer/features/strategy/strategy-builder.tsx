import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { TEMPLATES } from '@shared/strategy/templates';
import { describeError } from '../../lib/describe-error';
import { formatPrice, formatQty } from '../../lib/format';
import { legAdded as basketLegAdded, MAX_LEGS } from '../../state/baskets-model';
import { useToastActions } from '../../state/toast-store';
import { useBasket } from '../basket/use-basket';
import { useBasketMargin } from '../basket/basket-margin';
import { Dialog } from '../layout/dialog';
import { formatExpiry } from '../options/chain-model';
import { portfolioQueries } from '../portfolio/queries';
import { LegOutcomes } from '../ticket/slice-offer';
import { UnconfirmedGuard } from '../ticket/unconfirmed-guard';
import { FILL_DEADLINE_MS } from '@shared/trading/buys-first';
import { useSubmitLegs, type SubmitLegs } from '../ticket/use-submit-legs';
import { positionLegs, strategyOrders, templateLegs, type BuilderLeg } from './builder-model';
import { StrategyBar, type TemplateChoice } from './strategy-bar';
import { StrategyFigures } from './strategy-figures';
import { StrategyPayoff } from './strategy-payoff';
import { StrategyLegsTable } from './strategy-legs-table';
import { useStrategyActions, useStrategyLegs, useStrategyUnderlying, useWhatIf } from './strategy-store';
import { useStrategyView } from './use-strategy-view';
import './strategy.css';

let toastCount = 0;

/** Each leg as it will be sent: a buy at its protected limit. */
function legNames(placing: ReturnType<typeof strategyOrders>): string[] {
  if (!('legs' in placing)) return [];
  return placing.legs.map(
    (l, i) =>
      `${l.side} ${formatQty(l.lots * l.lotSize)} ${l.tradingsymbol} @ ${formatPrice(placing.orders[i]?.price ?? l.price, l.tickSize)}`,
  );
}

/** The template chosen in the bar, and its lots and wings. */
function useTemplateChoice(): TemplateChoice {
  const [templateId, setTemplateId] = useState(TEMPLATES[0]!.id);
  const [lots, setLots] = useState(1);
  const [width, setWidth] = useState(1);
  const template = TEMPLATES.find((t) => t.id === templateId) ?? TEMPLATES[0]!;
  return { template, lots, width, templateChosen: setTemplateId, lotsChanged: setLots, widthChanged: setWidth };
}

/**
 * The strategy builder (docs/strategy.md): a strategy's legs — from a template, the option chain
 * or the open positions — valued live with the chain's IVs by the paper market's own model; the
 * payoff at expiry and on a chosen date, its figures, Greeks and margin; what-if sliders; and
 * Place, which sends each leg through `orders.place` exactly once, buys first, stopping at a leg
 * that did not go in, as a basket does (docs/desk.md §Baskets).
 */
export function StrategyBuilder({ onClose }: { readonly onClose: () => void }) {
  const stored = useStrategyUnderlying();
  const legs = useStrategyLegs();
  const whatIf = useWhatIf();
  const actions = useStrategyActions();
  const [chainExpiry, setChainExpiry] = useState<string | null>(null);
  const choice = useTemplateChoice();
  const [problem, setProblem] = useState<string | null>(null);
  const underlying = stored ?? 'NIFTY';
  const { template } = choice;
  // A calendar's far leg needs the next expiry's chain: read it while such a template is chosen.
  const wantsFar = template.legs.some((l) => l.expiry === 'far');
  const [farExpiry, setFarExpiry] = useState<string | null>(null);
  const view = useStrategyView(underlying, legs, whatIf, chainExpiry, wantsFar ? farExpiry : null);
  const { list, byToken } = view.instruments;
  const positions = useQuery(portfolioQueries.positions());
  const submit = useSubmitLegs();

  const lastPrice = (token: number): number | undefined =>
    view.rows.find((r) => r.leg.instrumentToken === token)?.lastPrice;
  const placing = strategyOrders(legs, byToken, lastPrice);
  const orders = 'orders' in placing ? placing.orders : [];
  const margin = useBasketMargin(orders);
  const note = (message: string): void => setProblem(message);

  const near = view.chain;
  const nextExpiry = near ? near.expiries[near.expiries.indexOf(near.expiry) + 1] : undefined;
  if (wantsFar && nextExpiry !== undefined && nextExpiry !== farExpiry) setFarExpiry(nextExpiry);
  const applyTemplate = (): void => {
    if (!near) return note('The option chain has not loaded yet');
    const far = nextExpiry ? view.chains.get(nextExpiry) : undefined;
    if (wantsFar && !far) {
      return note(
        nextExpiry
          ? `Reading the ${formatExpiry(nextExpiry, near.expiry)} chain for the far leg — apply again in a moment`
          : `${underlying} has no later expiry for a calendar`,
      );
    }
    const built = templateLegs(template, near, far, byToken, (t) => lastPrice(t), choice.lots, choice.width);
    if (!built)
      return note(`${template.name} does not fit the strikes shown with wings ${choice.width} strikes out: try fewer`);
    setProblem(null);
    actions.legsReplaced(underlying, built);
  };
  const fromPositions = (): void => {
    const { legs: built, skipped } = positionLegs(positions.data ?? [], underlying, byToken);
    if (built.length === 0) return note(`No open ${underlying} derivative positions`);
    setProblem(skipped ? `${skipped} position${skipped === 1 ? ' is' : 's are'} not whole lots and left out` : null);
    actions.legsReplaced(underlying, built);
  };

  const whatIfActive = whatIf.spotPct !== 0 || whatIf.ivPoints !== 0 || whatIf.days !== 0;

  return (
    <Dialog title={`Strategy builder — ${underlying}`} onClose={onClose} screen>
      <div className="strategy">
        <StrategyBar
          underlying={underlying}
          view={view}
          chainExpiry={chainExpiry}
          chainExpiryChosen={setChainExpiry}
          underlyingChosen={(u) => {
            setChainExpiry(null);
            actions.underlyingChosen(u);
          }}
          choice={choice}
          pending={submit.pending}
          hasLegs={legs.length > 0}
          onApply={applyTemplate}
          onFromPositions={fromPositions}
          onClear={actions.cleared}
        />
        <p id="strategy-template-strikes" className="muted small strategy__strikes">
          {template.name}:{' '}
          {template.strikes.replace(/Wings strikes/g, `${choice.width} strike${choice.width === 1 ? '' : 's'}`)}
        </p>
        {problem ? (
          <p role="alert" className="inline-error small strategy__problem">
            {problem}
          </p>
        ) : null}
        {view.chainError && !view.chain ? (
          <p className="muted small">
            No option chain: {describeError(view.chainError)}. Legs are valued at the IV their own prices imply.
          </p>
        ) : null}

        <div className="strategy__main">
          <StrategyPayoff
            underlying={underlying}
            legs={legs}
            view={view}
            whatIf={whatIf}
            onWhatIf={actions.whatIfChanged}
          />
          <StrategyFigures analysis={view.analysis} pnlNow={view.pnlNow} margin={margin} whatIfActive={whatIfActive} />
        </div>

        <StrategyLegsTable
          rows={view.rows}
          list={list}
          lastPrice={lastPrice}
          disabled={submit.pending}
          onChange={(id, leg: BuilderLeg) => actions.legChanged(id, leg)}
          onRemove={actions.legRemoved}
          onMoveFailed={note}
        />

        <StrategyPlacing legCount={legs.length} placing={placing} submit={submit} note={note} />
      </div>
    </Dialog>
  );
}

/**
 * Placing the strategy (docs/strategy.md §Placing): Place, after a confirmation that lists each
 * leg as it will be sent, or Add to basket; then how each leg went.
 */
function StrategyPlacing(props: {
  readonly legCount: number;
  readonly placing: ReturnType<typeof strategyOrders>;
  readonly submit: SubmitLegs;
  readonly note: (message: string) => void;
}) {
  const { placing, submit, note, legCount } = props;
  const { toastRaised } = useToastActions();
  const { basket, change: changeBasket } = useBasket();
  const [confirming, setConfirming] = useState(false);
  const names = legNames(placing);

  const addToBasket = (): void => {
    if (!('orders' in placing)) return note(placing.error);
    if (basket.legs.length + placing.orders.length > MAX_LEGS)
      return note(`The basket holds at most ${MAX_LEGS} legs; it has ${basket.legs.length}`);
    changeBasket((b) => placing.orders.reduce((acc, o) => basketLegAdded(acc, o), b));
    toastRaised({
      id: `strategy-basket-${++toastCount}`,
      tone: 'neutral',
      title: `${placing.orders.length} legs added to the basket, buys first`,
      detail: 'Not sent until Place all',
    });
  };
  const place = (despiteUnconfirmed = false): void => {
    setConfirming(false);
    if (!('orders' in placing)) return note(placing.error);
    submit.submit(placing.orders, despiteUnconfirmed ? { despiteUnconfirmed } : undefined);
  };

  return (
    <>
      <div className="strategy__actions">
        <button
          type="button"
          className="buy-button"
          disabled={legCount === 0 || submit.pending}
          onClick={() => ('orders' in placing ? setConfirming(true) : note(placing.error))}
        >
          {submit.pending ? 'Placing…' : `Place ${legCount} order${legCount === 1 ? '' : 's'}`}
        </button>
        <button type="button" disabled={legCount === 0 || submit.pending} onClick={addToBasket}>
          Add to basket
        </button>
        <span className="muted small">
          Each leg is its own LIMIT order, buys first at a protected price. Sells wait for the buys to fill; a leg that
          does not go in stops the rest.
        </span>
      </div>
      {submit.legs ? <LegOutcomes legs={submit.legs} names={names} /> : null}
      {submit.heldBack ? (
        <p role="alert" className="inline-error small">
          {submit.heldBack}
        </p>
      ) : null}
      {confirming && 'orders' in placing ? (
        <ConfirmPlace names={names} onPlace={() => place()} onBack={() => setConfirming(false)} />
      ) : null}
      {submit.warning ? (
        <UnconfirmedGuard warning={submit.warning} onPlace={() => place(true)} onBack={submit.dismissWarning} />
      ) : null}
    </>
  );
}

/** The legs as they will be sent, in order, before anything is: buys first, sells after their fill. */
function ConfirmPlace(props: {
  readonly names: readonly string[];
  readonly onPlace: () => void;
  readonly onBack: () => void;
}) {
  const count = props.names.length;
  return (
    <Dialog title={`Place ${count} orders?`} onClose={props.onBack}>
      <ol className="strategy__confirm">
        {props.names.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ol>
      <p>
        Buys go first. Sells wait for the buys to fill, for at most {FILL_DEADLINE_MS / 1000} s; a leg that is not
        placed stops the ones after it.
      </p>
      <div className="form__buttons">
        <button type="button" className="buy-button" data-autofocus onClick={props.onPlace}>
          Place {count} orders
        </button>
        <button type="button" onClick={props.onBack}>
          Back
        </button>
      </div>
    </Dialog>
  );
}
