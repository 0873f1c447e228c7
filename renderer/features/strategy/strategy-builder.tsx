import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { TEMPLATES } from '@shared/strategy/templates';
import { expiryInstant } from '@shared/trading/market-hours';
import { describeError } from '../../lib/describe-error';
import { formatIstDateTime, formatPrice, formatQty } from '../../lib/format';
import { legAdded as basketLegAdded, MAX_LEGS } from '../../state/baskets-model';
import { useToastActions } from '../../state/toast-store';
import { useBasket } from '../basket/use-basket';
import { useBasketMargin } from '../basket/basket-margin';
import { Dialog } from '../layout/dialog';
import { formatExpiry, underlyingsOf } from '../options/chain-model';
import { portfolioQueries } from '../portfolio/queries';
import { LegOutcomes } from '../ticket/slice-offer';
import { UnconfirmedGuard } from '../ticket/unconfirmed-guard';
import { FILL_DEADLINE_MS } from '@shared/trading/buys-first';
import { useSubmitLegs } from '../ticket/use-submit-legs';
import { positionLegs, strategyOrders, templateLegs, type BuilderLeg } from './builder-model';
import { PayoffChart } from './payoff-chart';
import { StrategyFigures, WhatIfControls } from './strategy-figures';
import { StrategyLegsTable } from './strategy-legs-table';
import { useStrategyActions, useStrategyLegs, useStrategyUnderlying, useWhatIf } from './strategy-store';
import { useStrategyView } from './use-strategy-view';
import './strategy.css';

const DAY_MS = 86_400_000;
let toastCount = 0;

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
  const { toastRaised } = useToastActions();
  const [chainExpiry, setChainExpiry] = useState<string | null>(null);
  const [templateId, setTemplateId] = useState(TEMPLATES[0]!.id);
  const [lots, setLots] = useState(1);
  const [width, setWidth] = useState(1);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const underlying = stored ?? 'NIFTY';
  const template = TEMPLATES.find((t) => t.id === templateId) ?? TEMPLATES[0]!;
  // A calendar's far leg needs the next expiry's chain: read it while such a template is chosen.
  const wantsFar = template.legs.some((l) => l.expiry === 'far');
  const [farExpiry, setFarExpiry] = useState<string | null>(null);
  const view = useStrategyView(underlying, legs, whatIf, chainExpiry, wantsFar ? farExpiry : null);
  const { list, byToken } = view.instruments;
  const positions = useQuery(portfolioQueries.positions());
  const submit = useSubmitLegs();
  const { basket, change: changeBasket } = useBasket();

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
    const built = templateLegs(template, near, far, byToken, (t) => lastPrice(t), lots, width);
    if (!built)
      return note(`${template.name} does not fit the strikes shown with wings ${width} strikes out: try fewer`);
    setProblem(null);
    actions.legsReplaced(underlying, built);
  };
  const fromPositions = (): void => {
    const { legs: built, skipped } = positionLegs(positions.data ?? [], underlying, byToken);
    if (built.length === 0) return note(`No open ${underlying} derivative positions`);
    setProblem(skipped ? `${skipped} position${skipped === 1 ? ' is' : 's are'} not whole lots and left out` : null);
    actions.legsReplaced(underlying, built);
  };

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

  const expiry = legs.length ? legs.reduce((m, l) => (l.expiry < m ? l.expiry : m), legs[0]!.expiry) : null;
  const expiryAt = legs.length ? Math.min(...legs.map((l) => expiryInstant(l.exchange, l.expiry))) : null;
  const maxDays = expiryAt === null ? 0 : Math.max(0, Math.floor((expiryAt - view.now) / DAY_MS));
  const whatIfActive = whatIf.spotPct !== 0 || whatIf.ivPoints !== 0 || whatIf.days !== 0;
  const targetLabel =
    whatIf.days === 0
      ? `Today (${formatIstDateTime(view.now)})`
      : `In ${whatIf.days} day${whatIf.days === 1 ? '' : 's'} (${formatIstDateTime(view.targetAt)})`;
  const summary = view.analysis?.summary;
  const describe = summary
    ? `Payoff of the ${underlying} strategy at expiry: maximum profit ${summary.maxProfit.kind === 'finite' ? Math.round(summary.maxProfit.value) : 'unlimited'} rupees, maximum loss ${summary.maxLoss.kind === 'finite' ? Math.round(-summary.maxLoss.value) : 'unlimited'} rupees, breakevens ${summary.breakevens.map((b) => Math.round(b)).join(' and ') || 'none'}`
    : 'No payoff yet';
  // Each leg as it will be sent: a buy at its protected limit.
  const names =
    'legs' in placing
      ? placing.legs.map(
          (l, i) =>
            `${l.side} ${formatQty(l.lots * l.lotSize)} ${l.tradingsymbol} @ ${formatPrice(placing.orders[i]?.price ?? l.price, l.tickSize)}`,
        )
      : [];

  return (
    <Dialog title={`Strategy builder — ${underlying}`} onClose={onClose} screen>
      <div className="strategy">
        <div className="strategy__bar">
          <label>
            Underlying{' '}
            <select
              data-autofocus
              value={underlying}
              disabled={submit.pending}
              onChange={(e) => {
                setChainExpiry(null);
                actions.underlyingChosen(e.target.value);
              }}
            >
              {(underlyingsOf(list).includes(underlying)
                ? underlyingsOf(list)
                : [underlying, ...underlyingsOf(list)]
              ).map((u) => (
                <option key={u} value={u}>
                  {u}
                </option>
              ))}
            </select>
          </label>
          <label>
            Expiry{' '}
            <select
              value={chainExpiry ?? view.chain?.expiry ?? ''}
              onChange={(e) => setChainExpiry(e.target.value || null)}
            >
              {(view.chain?.expiries ?? []).map((x, _, all) => (
                <option key={x} value={x}>
                  {formatExpiry(x, all[0] ?? x)}
                </option>
              ))}
            </select>
          </label>
          <span className="strategy__sep" />
          <label title={template.strikes}>
            Template{' '}
            <select
              value={templateId}
              aria-describedby="strategy-template-strikes"
              onChange={(e) => setTemplateId(e.target.value)}
            >
              {TEMPLATES.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Lots{' '}
            <input
              className="strategy__lots"
              type="number"
              min={1}
              max={100}
              value={lots}
              onChange={(e) => setLots(Math.max(1, Math.min(100, Math.round(Number(e.target.value)) || 1)))}
            />
          </label>
          <label title="Wings: how many strikes beyond the sold legs the bought legs sit (spreads, condor, fly, butterfly)">
            Wings{' '}
            <input
              className="strategy__lots"
              type="number"
              min={1}
              max={10}
              value={width}
              onChange={(e) => setWidth(Math.max(1, Math.min(10, Math.round(Number(e.target.value)) || 1)))}
            />
          </label>
          <button type="button" disabled={submit.pending} onClick={applyTemplate}>
            Apply template
          </button>
          <button type="button" disabled={submit.pending} onClick={fromPositions}>
            From positions
          </button>
          <button type="button" disabled={submit.pending || legs.length === 0} onClick={actions.cleared}>
            Clear
          </button>
          <span
            className="strategy__spot"
            data-testid="strategy-spot"
            title={view.spotFrom === 'stream' ? 'Live' : "The chain's last read"}
          >
            {underlying} {view.spot === null ? '…' : formatPrice(Math.round(view.spot * 100) / 100)}
            {view.spotFrom === 'chain' ? <span className="muted small"> (chain)</span> : null}
          </span>
        </div>
        <p id="strategy-template-strikes" className="muted small strategy__strikes">
          {template.name}: {template.strikes.replace(/Wings strikes/g, `${width} strike${width === 1 ? '' : 's'}`)}
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
          <div className="strategy__chart">
            {view.analysis && view.spot !== null ? (
              <PayoffChart
                curves={view.analysis.curves}
                spot={view.spot}
                whatIfSpot={whatIf.spotPct !== 0 ? view.whatIfSpot : null}
                breakevens={view.analysis.summary.breakevens}
                expiryLabel={expiry ? formatExpiry(expiry, expiry) : ''}
                targetLabel={targetLabel}
                description={describe}
              />
            ) : (
              <div className="strategy__empty">
                {legs.length === 0 ? 'The payoff appears here once the strategy has legs' : 'Waiting for prices…'}
              </div>
            )}
            <WhatIfControls whatIf={whatIf} maxDays={maxDays} spot={view.spot} onChange={actions.whatIfChanged} />
          </div>
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

        <div className="strategy__actions">
          <button
            type="button"
            className="buy-button"
            disabled={legs.length === 0 || submit.pending}
            onClick={() => ('orders' in placing ? setConfirming(true) : note(placing.error))}
          >
            {submit.pending ? 'Placing…' : `Place ${legs.length} order${legs.length === 1 ? '' : 's'}`}
          </button>
          <button type="button" disabled={legs.length === 0 || submit.pending} onClick={addToBasket}>
            Add to basket
          </button>
          <span className="muted small">
            Each leg is its own LIMIT order, buys first at a protected price. Sells wait for the buys to fill; a leg
            that does not go in stops the rest.
          </span>
        </div>
        {submit.legs ? <LegOutcomes legs={submit.legs} names={names} /> : null}
        {submit.heldBack ? (
          <p role="alert" className="inline-error small">
            {submit.heldBack}
          </p>
        ) : null}
      </div>
      {confirming && 'orders' in placing ? (
        <Dialog title={`Place ${placing.orders.length} orders?`} onClose={() => setConfirming(false)}>
          <ol className="strategy__confirm">
            {names.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ol>
          <p>
            Buys go first. Sells wait for the buys to fill, for at most {FILL_DEADLINE_MS / 1000} s; a leg that is not
            placed stops the ones after it.
          </p>
          <div className="form__buttons">
            <button type="button" className="buy-button" data-autofocus onClick={() => place()}>
              Place {placing.orders.length} orders
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Back
            </button>
          </div>
        </Dialog>
      ) : null}
      {submit.warning ? (
        <UnconfirmedGuard warning={submit.warning} onPlace={() => place(true)} onBack={submit.dismissWarning} />
      ) : null}
    </Dialog>
  );
}
