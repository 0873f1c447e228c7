import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, type ComponentProps, type ReactNode } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import type { OptionChain } from '@shared/domain/market';
import { describeError } from '../../lib/describe-error';
import { formatPrice } from '../../lib/format';
import { useTicketActions, useTicketDraft } from '../ticket/ticket-store';
import { useInstruments } from '../instruments/queries';
import { num, TableHead, type Column } from '../layout/grid-table';
import { Panel } from '../layout/panel';
import { useMarketSubscription } from '../market/use-market-subscription';
import { expiryInstant } from '@shared/trading/market-hours';
import { yearsTo } from '@shared/trading/options-pricing';
import { ChainLeg } from './chain-leg';
import { formatExpiry, inTheMoney, maxPain, putCallRatio, spotIndex, underlyingsOf } from './chain-model';
import { useChainToBasket } from './use-chain-to-basket';
import { useChainToStrategy } from '../strategy/use-chain-to-strategy';
import { useStrategyActions, useStrategyLegs } from '../strategy/strategy-store';
import {
  useChainExpiry,
  useChainGreeks,
  useChainTarget,
  useChainUnderlying,
  useOptionChainActions,
  type ChainTarget,
} from './option-chain-store';
import { optionQueries } from './queries';
import { NeedsMarketData } from '../session/no-market-data';
import './options.css';
import { useChainFollowsLink } from '../workstation/use-chain-follows-link';

/**
 * The option chain (docs/renderer.md, "Market depth, sessions and the option chain on
 * screen"): for a chosen underlying and expiry, the strikes around the money with calls and puts
 * side by side — open interest and its change, implied volatility, delta (and gamma, theta and
 * vega when asked), last price and change — the in-the-money side shaded, the at-the-money strike
 * marked and a line where the underlying's price falls; above them the put–call ratio and max pain
 * of the strikes shown (docs/strategy.md §The option chain). The contracts stream in `quote` mode
 * while the chain is shown (owner `options`), so prices move live; clicking one opens the ticket
 * on it, on the ticket's side, and its B / S add one lot to the basket — or to the strategy
 * builder — so a straddle or a spread is two clicks (docs/desk.md §Baskets).
 *
 * On an account without market data it says so instead (docs/kite.md §The plan).
 */
export function OptionChainPanel() {
  return (
    <NeedsMarketData title="Option chain" className="chain-panel" what="Option prices, OI and greeks">
      <LiveOptionChainPanel />
    </NeedsMarketData>
  );
}

/** Opens the ticket on a contract, on the side the ticket is on now (read when clicked, not when drawn). */
function useTradeOnTicketSide(byToken: ReadonlyMap<number, Instrument>): (token: number) => void {
  const side = useTicketDraft().side;
  const { ticketOpened } = useTicketActions();
  const latestSide = useRef(side);
  useEffect(() => {
    latestSide.current = side;
  });
  return useCallback(
    (token: number) => {
      const i = byToken.get(token);
      if (i) ticketOpened(latestSide.current, i);
    },
    [byToken, ticketOpened],
  );
}

function LiveOptionChainPanel() {
  const underlying = useChainUnderlying();
  const expiry = useChainExpiry();
  const { underlyingChosen, expiryChosen } = useOptionChainActions();
  const { list, byToken } = useInstruments();
  const underlyings = underlyingsOf(list);
  useChainFollowsLink(underlyings, underlying, underlyingChosen);
  const result = useQuery(optionQueries.chain(underlying, expiry));
  const chain = result.data;
  const tokens = (chain?.rows ?? []).flatMap((r) => [r.call, r.put]).flatMap((l) => (l ? [l.instrumentToken] : []));
  useMarketSubscription('options', tokens);
  const trade = useTradeOnTicketSide(byToken);
  const addToBasket = useChainToBasket(byToken);
  const addToStrategy = useChainToStrategy(byToken);
  const target = useChainTarget();
  const add = target === 'basket' ? addToBasket : addToStrategy;
  const showGreeks = useChainGreeks();

  return (
    <Panel
      title="Option chain"
      className="chain-panel"
      source={{ ...result, queryKey: optionQueries.chain(underlying, expiry).queryKey }}
    >
      <div className="chain__bar">
        <span className="chain__side-name">Calls</span>
        <div className="chain__controls">
          <select aria-label="Underlying" value={underlying} onChange={(e) => underlyingChosen(e.target.value)}>
            {(underlyings.includes(underlying) ? underlyings : [underlying, ...underlyings]).map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </select>
          <select
            aria-label="Expiry"
            value={expiry ?? chain?.expiry ?? ''}
            onChange={(e) => expiryChosen(e.target.value || null)}
          >
            {(chain?.expiries ?? (expiry ? [expiry] : [])).map((x, _, all) => (
              <option key={x} value={x}>
                {formatExpiry(x, all[0] ?? x)}
              </option>
            ))}
          </select>
          {chain ? (
            <span className="chain__underlying" data-testid="chain-underlying-price" title="The underlying's price">
              {formatPrice(chain.underlyingPrice)}
            </span>
          ) : null}
        </div>
        <span className="chain__side-name">Puts</span>
      </div>
      <ChainStatsBar chain={chain} />
      {chain === undefined ? (
        <p className="empty">
          {result.error
            ? `Could not load the chain: ${describeError(result.error)}`
            : `Loading the ${underlying} chain…`}
        </p>
      ) : (
        <ChainTable
          chain={chain}
          byToken={byToken}
          showGreeks={showGreeks}
          target={target}
          onTrade={trade}
          onAdd={add}
        />
      )}
    </Panel>
  );
}

/** The put–call ratio and max pain of the strikes shown, and the chain's switches: Greeks, where B / S add, the builder. */
function ChainStatsBar({ chain }: { readonly chain: OptionChain | undefined }) {
  const target = useChainTarget();
  const showGreeks = useChainGreeks();
  const { greeksShown, targetChosen } = useOptionChainActions();
  const strategyLegs = useStrategyLegs().length;
  const { opened } = useStrategyActions();
  const pcr = chain ? putCallRatio(chain.rows) : null;
  const pain = chain ? maxPain(chain.rows) : null;
  return (
    <div className="chain__bar chain__bar--stats">
      <span className="chain__stats">
        <span title="Put–call ratio: the puts' open interest over the calls', of the strikes shown">
          PCR <strong data-testid="chain-pcr">{pcr === null ? '–' : pcr.toFixed(2)}</strong>
        </span>
        <span title="Max pain: the strike where the options' holders would be paid least at expiry (strikes shown)">
          Max pain <strong data-testid="chain-max-pain">{pain === null ? '–' : pain.toLocaleString('en-IN')}</strong>
        </span>
      </span>
      <span className="chain__stats">
        <label className="check small">
          <input type="checkbox" checked={showGreeks} onChange={(e) => greeksShown(e.target.checked)} />
          Greeks
        </label>
        <label className="small">
          B/S add to{' '}
          <select
            aria-label="B/S add to"
            value={target}
            onChange={(e) => targetChosen(e.target.value === 'strategy' ? 'strategy' : 'basket')}
          >
            <option value="basket">Basket</option>
            <option value="strategy">Strategy</option>
          </select>
        </label>
        <button type="button" className="mini" onClick={opened}>
          Strategy{strategyLegs > 0 ? ` (${strategyLegs})` : ''}…
        </button>
      </span>
    </div>
  );
}

/** Gamma, theta and vega, shown beside delta when asked. */
const GREEK_COLUMNS: readonly Column[] = [
  num('Γ', "Gamma: delta's change per point of the underlying"),
  num('Θ', "Theta: the premium's change in a day, rupees"),
  num('Vega', "Vega: the premium's change per point of IV, rupees"),
];

/** The chain's columns: the calls' from the outside in, the strike, then the puts' mirrored. */
function chainColumns(showGreeks: boolean): readonly Column[] {
  const side: readonly Column[] = [
    num('OI', 'Open interest'),
    { header: 'OI chg', num: true, className: 'chain__oichg', title: "Open interest's change since the previous day" },
    { header: 'IV', num: true, className: 'chain__iv', title: 'Implied volatility, % a year' },
    num('Δ', 'Delta'),
    ...(showGreeks ? GREEK_COLUMNS : []),
    num('LTP'),
  ];
  return [...side, { header: 'Strike', num: true, className: 'chain__strike' }, ...[...side].reverse()];
}

/**
 * The strikes, calls left and puts right, the at-the-money one marked (and centred when a chain
 * is first shown) and a line where the underlying's price falls.
 */
function ChainTable(props: {
  readonly chain: OptionChain;
  readonly byToken: ReadonlyMap<number, Instrument>;
  readonly showGreeks: boolean;
  readonly target: ChainTarget;
  readonly onTrade: (token: number) => void;
  readonly onAdd: ComponentProps<typeof ChainLeg>['onAdd'];
}) {
  const { chain, byToken, showGreeks } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const shownKey = `${chain.underlying}:${chain.expiry}`;
  useEffect(() => {
    const box = scroller.current;
    const atm = box?.querySelector<HTMLElement>('tr.is-atm');
    if (box && atm) box.scrollTop = Math.max(0, atm.offsetTop - box.clientHeight / 2);
  }, [shownKey]);

  const firstLeg = chain.rows.flatMap((r) => [r.call, r.put]).find((l) => l !== null);
  const tick = (firstLeg && byToken.get(firstLeg.instrumentToken)?.tickSize) ?? 0.05;
  const spotAt = spotIndex(chain.rows, chain.underlyingPrice);
  const greeksAt = showGreeks
    ? { spot: chain.underlyingPrice, years: yearsTo(expiryInstant(chain.exchange, chain.expiry), Date.parse(chain.ts)) }
    : null;
  // Five a side and the strike, and three Greeks a side when shown.
  const head = chainColumns(showGreeks);
  const COLUMNS = head.length;
  const spotText = `${chain.underlying} ${formatPrice(chain.underlyingPrice)}`;
  const leg = (kind: 'call' | 'put', r: OptionChain['rows'][number]) => {
    const l = kind === 'call' ? r.call : r.put;
    const tradable = l !== null && byToken.has(l.instrumentToken);
    return (
      <ChainLeg
        kind={kind}
        leg={l}
        itm={inTheMoney(kind, r.strike, chain.underlyingPrice)}
        tickSize={tick}
        strike={r.strike}
        greeksAt={greeksAt}
        target={props.target}
        onTrade={tradable ? props.onTrade : undefined}
        onAdd={tradable ? props.onAdd : undefined}
      />
    );
  };
  return (
    <div className="table-scroll chain__scroll" ref={scroller}>
      <table aria-label="Option chain" className={`grid chain${showGreeks ? ' chain--greeks' : ''}`}>
        <TableHead columns={head} />
        <tbody>
          {chain.rows.map((r, n) => (
            <ChainRowWithSpot key={r.strike} columns={COLUMNS} spotBefore={n === spotAt} spotText={spotText}>
              <tr
                className={r.strike === chain.atmStrike ? 'is-atm' : undefined}
                data-strike={r.strike}
                aria-current={r.strike === chain.atmStrike ? 'true' : undefined}
              >
                {leg('call', r)}
                <th scope="row" className="num chain__strike">
                  {r.strike.toLocaleString('en-IN')}
                </th>
                {leg('put', r)}
              </tr>
            </ChainRowWithSpot>
          ))}
          {spotAt === chain.rows.length ? <SpotLine columns={COLUMNS} text={spotText} /> : null}
        </tbody>
      </table>
    </div>
  );
}

/** A strike's row, with the spot line drawn before it when the underlying's price falls just below it. */
function ChainRowWithSpot(props: {
  readonly columns: number;
  readonly spotBefore: boolean;
  readonly spotText: string;
  readonly children: ReactNode;
}) {
  return (
    <>
      {props.spotBefore ? <SpotLine columns={props.columns} text={props.spotText} /> : null}
      {props.children}
    </>
  );
}

/** The underlying's price, as a line between the strikes around it. */
function SpotLine({ text, columns }: { readonly text: string; readonly columns: number }) {
  return (
    <tr className="chain__spot" data-testid="chain-spot">
      <td colSpan={columns}>
        <span>{text}</span>
      </td>
    </tr>
  );
}
