import { instrumentLabel } from '@shared/domain/instrument-label';
import { memo, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import { formatPrice, signClass } from '../../lib/format';
import { focusRow, tabStop } from '../../lib/row-navigation';
import { shortcutFor } from '../../lib/shortcuts';
import { useHoverTitle } from '../../lib/use-hover-title';
import {
  activeList,
  listShown,
  tokenAdded,
  tokenDropped,
  tokenMoved,
  tokenRemoved,
} from '../../state/watchlists-model';
import { useSelectedToken, useTicketActions } from '../ticket/ticket-store';
import { useInstruments } from '../instruments/queries';
import { Panel } from '../layout/panel';
import { SymbolCombobox } from '../ticket/symbol-combobox';
import { BidAsk } from './bid-ask';
import { LivePrice } from './live-price';
import { usePreviousClose } from './queries';
import { changeFrom } from './quote-cache';
import { useMarketSubscription } from './use-market-subscription';
import { useQuote, useQuotesStore } from './use-quotes';
import { useInView } from './use-in-view';
import { useWatchColumns } from './watch-columns';
import { useWatchlists } from './use-watchlist-tokens';
import { WatchlistsDialog } from './watchlists-dialog';
import { NoMarketDataNote } from '../session/no-market-data';
import { useMarketData } from '../session/use-market-data';
import './watchlists.css';
import { ActionsHeader } from '../layout/record-table';

/**
 * Watched instruments with live last prices and the best bid and offer (the stream's `quote`
 * ticks carry them). Selecting a row makes it the instrument F1/F2 open a ticket for, and the
 * one the chart and the depth show; B/S open a ticket at once. From the keyboard: ↑/↓ move
 * through the rows (selecting each), B/S open a ticket, Del removes, Alt+↑/↓ (or a drag) move
 * a row (`lib/shortcuts.ts`). Several named lists per profile, one shown (docs/desk.md §Named
 * watchlists).
 */
export function Watchlist() {
  const { list, byToken } = useInstruments();
  const lists = useWatchlists();
  const { profile, change } = lists;
  const shown = activeList(profile);
  const tokens = shown.tokens;
  const [managing, setManaging] = useState(false);
  const selected = useSelectedToken();
  const { instrumentSelected, ticketOpened } = useTicketActions();
  const refocus = useRefocusMovedRow();
  const marketData = useMarketData();
  useMarketSubscription('watchlist', tokens);
  const rows = tokens.map((t) => byToken.get(t)).filter((i): i is Instrument => i !== undefined);
  const columns = useWatchColumns(rows);
  // One tab stop (roving focus): the selected row, else the first; ↑/↓ move it (docs/desk.md §Keyboard).
  const stop = tabStop(
    rows.map((i) => i.instrumentToken),
    selected,
  );

  return (
    <Panel
      title="Watchlist"
      actions={
        <div className="toolbar">
          <select
            aria-label="Shown watchlist"
            className="watchlist__pick"
            value={shown.id}
            onChange={(e) => change((p) => listShown(p, e.target.value))}
          >
            {profile.lists.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
          <button type="button" className="mini" aria-label="Manage watchlists" onClick={() => setManaging(true)}>
            Lists…
          </button>
        </div>
      }
    >
      <div className="watchlist__add">
        <SymbolCombobox
          label="Add to watchlist"
          instruments={list}
          value={undefined}
          onChoose={(i) => change((p) => tokenAdded(p, i.instrumentToken))}
        />
      </div>
      {marketData ? null : <NoMarketDataNote what="Bid/ask, last prices and the day's change" />}
      <div className="table-scroll watchlist__rows">
        <table aria-label="Instruments" className="grid grid--watch" style={columns}>
          <thead>
            <tr>
              <th>Symbol</th>
              <th>Exch</th>
              <th className="num">
                <abbr title="Best bid (top) and best offer (below)">Bid/Ask</abbr>
              </th>
              <th className="num">LTP</th>
              <th className="num">Chg%</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {rows.map((i, n) => (
              <WatchRow
                key={i.instrumentToken}
                instrument={i}
                withChange={marketData && n < CHANGE_ROWS}
                selected={selected === i.instrumentToken}
                tabStop={stop === i.instrumentToken}
                onSelect={() => instrumentSelected(i.instrumentToken)}
                onOpen={(side, live) => ticketOpened(side, live)}
                onRemove={() => change((p) => tokenRemoved(p, i.instrumentToken))}
                onMove={(step) => {
                  refocus(i.instrumentToken);
                  change((p) => tokenMoved(p, i.instrumentToken, step));
                }}
                onDropOn={(dragged) => change((p) => tokenDropped(p, dragged, i.instrumentToken))}
              />
            ))}
          </tbody>
        </table>
      </div>
      {managing ? <WatchlistsDialog lists={lists} onClose={() => setManaging(false)} /> : null}
    </Panel>
  );
}

/** The drag data of a watchlist row: its instrument token. */
const DRAG_TYPE = 'application/x-tradedesk-token';

/**
 * After Alt+↑/↓ the moved row is re-inserted in the table, which can drop its focus: give it back
 * to that row once it is drawn, so the trader can keep moving it. Returns "this row is moving".
 */
function useRefocusMovedRow(): (token: number) => void {
  const moving = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (moving.current === null) return;
    document.querySelector<HTMLElement>(`tr[data-watch-row="${moving.current}"]`)?.focus();
    moving.current = null;
  });
  return (token) => {
    moving.current = token;
  };
}

/**
 * Rows that show the change from the previous close. Each needs one candles request, and
 * those share the client's rate limit with orders: a 400-row watchlist must not put 50 s of
 * reads in front of the trader's next order.
 */
const CHANGE_ROWS = 40;

/** "+2.50 (+0.17%)" / "−1.05 (−0.07%)": signed so the direction reads without colour. */
function formatChange(chg: { abs: number; pct: number }): string {
  const sign = chg.abs > 0 ? '+' : chg.abs < 0 ? '−' : '';
  return `${sign}${chg.abs === 0 ? '0.00' : formatPrice(Math.abs(chg.abs))} (${sign}${Math.abs(chg.pct).toFixed(2)}%)`;
}

/**
 * One watched instrument. The row itself reads no quote: its price cells subscribe to their own
 * instrument in the quotes store, so a tick re-renders those cells and nothing else (the row, its
 * handlers and the list stay as they were), and only while the row is in view. B/S read the live
 * price when pressed.
 */
const WatchRow = memo(function WatchRow(props: {
  readonly instrument: Instrument;
  /** Whether to fetch the previous close for the change column (see CHANGE_ROWS). */
  readonly withChange: boolean;
  readonly selected: boolean;
  /** The row Tab lands on (the list's one tab stop). */
  readonly tabStop: boolean;
  readonly onSelect: () => void;
  /** Opens a ticket; the instrument carries the live price, so a LIMIT starts at the market. */
  readonly onOpen: (side: 'BUY' | 'SELL', live: Instrument) => void;
  readonly onRemove: () => void;
  /** Moves this row `step` places (Alt+↑/↓). */
  readonly onMove: (step: number) => void;
  /** Another row, dragged by its token, dropped on this one. */
  readonly onDropOn: (dragged: number) => void;
}) {
  const i = props.instrument;
  const store = useQuotesStore();
  const rowRef = useRef<HTMLTableRowElement>(null);
  // Out of view (scrolled away in a long list) the price cells stop listening to ticks.
  const live = useInView(rowRef);
  const open = (side: 'BUY' | 'SELL'): void => {
    const quote = store.latest(i.instrumentToken);
    props.onOpen(side, quote ? { ...i, lastPrice: quote.lastPrice } : i);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTableRowElement>): void => {
    if (e.target !== e.currentTarget) return; // a key on the row's buttons is theirs
    const id = shortcutFor('watchlist', e);
    if (id === null) return;
    e.preventDefault();
    if (id === 'watch-next' || id === 'watch-previous') {
      const table = e.currentTarget.closest('table');
      const next = table && focusRow(table, e.currentTarget, 'tr[data-watch-row]', id === 'watch-next' ? 1 : -1);
      next?.click(); // selects it, as a click would
    } else if (id === 'watch-move-up' || id === 'watch-move-down') {
      props.onMove(id === 'watch-move-up' ? -1 : 1);
    } else if (id === 'watch-buy' || id === 'watch-sell') {
      open(id === 'watch-buy' ? 'BUY' : 'SELL');
    } else {
      const table = e.currentTarget.closest('table');
      // The focus stays in the list: on the next row, else the previous one.
      if (table && !focusRow(table, e.currentTarget, 'tr[data-watch-row]', 1)) {
        focusRow(table, e.currentTarget, 'tr[data-watch-row]', -1);
      }
      props.onRemove();
    }
  };
  return (
    <tr
      ref={rowRef}
      aria-selected={props.selected}
      className={props.selected ? 'is-selected' : undefined}
      data-watch-row={i.instrumentToken}
      tabIndex={props.tabStop ? 0 : -1}
      onClick={props.onSelect}
      onKeyDown={onKeyDown}
      draggable
      onDragStart={(e) => e.dataTransfer.setData(DRAG_TYPE, String(i.instrumentToken))}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault(); // a row may drop here
      }}
      onDrop={(e) => {
        const dragged = Number(e.dataTransfer.getData(DRAG_TYPE));
        if (dragged) {
          e.preventDefault();
          props.onDropOn(dragged);
        }
      }}
    >
      {/* A contract by underlying, expiry and strike; its exchange code in the tooltip (docs/desk.md §Instrument names). */}
      <td className="sym" title={i.tradingsymbol}>
        {instrumentLabel(i)}
      </td>
      <td className="muted">{i.exchange}</td>
      <td className="num">
        <RowBidAsk instrument={i} live={live} />
      </td>
      <td className="num">
        <RowPrice instrument={i} live={live} />
      </td>
      {props.withChange ? <RowChange instrument={i} live={live} /> : <ChangeCell chg={null} symbol={i.tradingsymbol} />}
      {/* Out of the tab order: B, S and Del do the same from the row (the list is one tab stop). */}
      <td className="row-actions" onClick={(e) => e.stopPropagation()}>
        <button
          type="button"
          tabIndex={-1}
          className="mini buy"
          aria-label={`Buy ${i.tradingsymbol}`}
          onClick={() => open('BUY')}
        >
          B
        </button>
        <button
          type="button"
          tabIndex={-1}
          className="mini sell"
          aria-label={`Sell ${i.tradingsymbol}`}
          onClick={() => open('SELL')}
        >
          S
        </button>
        <button
          type="button"
          tabIndex={-1}
          className="mini"
          aria-label={`Remove ${i.tradingsymbol}`}
          onClick={props.onRemove}
        >
          ×
        </button>
      </td>
    </tr>
  );
});

/** What a row's price cells show: their instrument, and whether the row is in view (`useInView`). */
interface RowCellProps {
  readonly instrument: Instrument;
  readonly live: boolean;
}

/** A row's best bid and offer: re-renders when its own instrument ticks. */
function RowBidAsk(props: RowCellProps) {
  const i = props.instrument;
  return <BidAsk quote={useQuote(i.instrumentToken, props.live)} tickSize={i.tickSize} symbol={i.tradingsymbol} />;
}

/** A row's last price: re-renders when its own instrument ticks (and with the staleness clock). */
function RowPrice(props: RowCellProps) {
  const i = props.instrument;
  return (
    <LivePrice
      quote={useQuote(i.instrumentToken, props.live)}
      fallback={i.lastPrice}
      tickSize={i.tickSize}
      testId={`ltp-${i.tradingsymbol}`}
      noMarketData={!useMarketData()}
    />
  );
}

/** A row's change from the previous close (rows within CHANGE_ROWS): its own tick and close only. */
function RowChange(props: RowCellProps) {
  const i = props.instrument;
  const quote = useQuote(i.instrumentToken, props.live);
  const close = usePreviousClose(i.instrumentToken);
  return <ChangeCell chg={changeFrom(close, quote?.lastPrice ?? i.lastPrice)} symbol={i.tradingsymbol} />;
}

/** The change cell: "+0.17%", signed and coloured, the rupee change in its title; `–` without a close. */
function ChangeCell(props: { readonly chg: { abs: number; pct: number } | null; readonly symbol: string }) {
  const { chg } = props;
  // The rupee change moves with every tick: its title is made on hover only (`useHoverTitle`).
  const hover = useHoverTitle(() => (chg === null ? undefined : `${formatChange(chg)} from the previous close`));
  return (
    <td className={`num chg ${chg === null ? '' : signClass(chg.abs)}`} data-testid={`chg-${props.symbol}`} {...hover}>
      {/* In a box of its own: a table cell cannot bound a layout, a fixed-size box can (docs/live-data.md §A ticking list's cost). */}
      <span className="chg__text">
        {chg === null ? '–' : `${chg.pct > 0 ? '+' : chg.pct < 0 ? '−' : ''}${Math.abs(chg.pct).toFixed(2)}%`}
      </span>
    </td>
  );
}
