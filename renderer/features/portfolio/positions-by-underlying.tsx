import type { Position } from '@shared/domain/portfolio';
import { formatPnl, formatPrice, signClass } from '../../lib/format';
import { useClock } from '../../lib/use-now';
import { useInstruments } from '../instruments/queries';
import { useMarketSubscription } from '../market/use-market-subscription';
import type { Quotes } from '../market/quote-cache';
import { useQuotesOf } from '../market/use-quotes';
import { isDerivative, positionLegs } from '../strategy/builder-model';
import { groupSpotSources, positionGroups } from '../strategy/position-groups';
import { useStrategyActions } from '../strategy/strategy-store';
import { ACTIONS, GridTable, num, type Column } from '../layout/grid-table';

const COLUMNS: readonly Column[] = [
  'Underlying',
  num('Positions'),
  num('Price'),
  num('Δ', 'Rupees per point of the underlying'),
  num('Γ', "Delta's change per point"),
  num('Θ / day', 'Rupees a day'),
  num('Vega', 'Rupees per IV point'),
  num('P&L'),
  ACTIONS,
];

/** A figure with its sign written, to `digits` places. */
const signed = (v: number, digits: number): string => {
  const text = Math.abs(v).toFixed(digits);
  return Number(text) === 0 ? text : v > 0 ? `+${text}` : `−${text}`;
};

/**
 * The open positions grouped by underlying (docs/strategy.md §From positions): each group's
 * price, net Greeks and P&L, and **Payoff**, which opens the strategy builder on the group's legs.
 */
export function PositionsByUnderlying(props: { readonly positions: readonly Position[]; readonly quotes: Quotes }) {
  const { list, byToken } = useInstruments();
  const clock = useClock();
  let now = 0;
  for (const p of props.positions) {
    const ts = props.quotes[p.instrumentToken]?.ts;
    if (ts) now = Math.max(now, Date.parse(ts));
  }
  if (now === 0) now = clock.now();
  // Each group's spot streams: a stock's listing, an index's nearest future. The panel's quotes
  // are its positions' only, so the spots' own are taken here.
  const sources = groupSpotSources(props.positions, byToken, list, now);
  useMarketSubscription('position-groups', sources);
  const spots = useQuotesOf(sources);
  const lastPrice = (token: number): number | undefined => (props.quotes[token] ?? spots[token])?.lastPrice;
  const groups = positionGroups(props.positions, byToken, list, lastPrice, now);
  const { legsReplaced, opened } = useStrategyActions();
  const payoff = (underlying: string): void => {
    const held = props.positions.filter((p) => {
      const i = byToken.get(p.instrumentToken);
      return i !== undefined && isDerivative(i) && i.name === underlying;
    });
    legsReplaced(underlying, positionLegs(held, underlying, byToken).legs);
    opened();
  };
  return (
    <GridTable
      label="Positions by underlying"
      columns={COLUMNS}
      rows={groups}
      none="No open positions"
      row={(g) => (
        <tr key={g.underlying} data-testid="position-group">
          <th scope="row" className="sym">
            {g.underlying}
          </th>
          <td className="num">{g.positions}</td>
          <td className="num">{g.spot === null ? '…' : formatPrice(Math.round(g.spot * 100) / 100)}</td>
          <td className="num" data-testid="group-delta">
            {g.greeks ? signed(g.greeks.delta, 2) : '…'}
          </td>
          <td className="num">{g.greeks ? signed(g.greeks.gamma, 4) : '…'}</td>
          <td className={`num ${signClass(g.greeks?.theta ?? 0)}`}>{g.greeks ? formatPnl(g.greeks.theta) : '…'}</td>
          <td className={`num ${signClass(g.greeks?.vega ?? 0)}`}>{g.greeks ? formatPnl(g.greeks.vega) : '…'}</td>
          <td className={`num ${signClass(g.pnl)}`}>{formatPnl(g.pnl)}</td>
          <td className="row-actions">
            {g.derivatives ? (
              <button
                type="button"
                aria-label={`Payoff of ${g.underlying} positions`}
                onClick={() => payoff(g.underlying)}
              >
                Payoff
              </button>
            ) : null}
          </td>
        </tr>
      )}
    />
  );
}
