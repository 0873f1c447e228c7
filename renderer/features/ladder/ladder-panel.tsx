import { useQuery } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import type { Order, OrderRequest } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { allowedProducts } from '@shared/trading/rules';
import { fromUnits, toUnits } from '@shared/trading/money';
import { call } from '../../lib/ipc-client';
import { formatPnl, formatPrice, formatQty, formatSignedQty, signClass } from '../../lib/format';
import { shortcutFor } from '../../lib/shortcuts';
import { useBook } from '../depth/use-book';
import { Panel } from '../layout/panel';
import { useMarketSubscription } from '../market/use-market-subscription';
import { useQuote } from '../market/use-quotes';
import { useShownInstrument } from '../market/use-shown-instrument';
import { orderQueries } from '../orders/queries';
import { markPosition } from '../portfolio/position-pnl';
import { portfolioQueries } from '../portfolio/queries';
import { NeedsMarketData } from '../session/no-market-data';
import { useTicketDraft } from '../ticket/ticket-store';
import { parseNumber } from '../ticket/ticket-model';
import {
  bookByPrice,
  clickOrder,
  dragChanges,
  ladderPriceOf,
  ladderOrders,
  type LadderOrder,
  type LadderOrders,
} from './ladder-model';
import { LadderRowCells, sameRow } from './ladder-row';
import { useLadderPaintProbe } from './ladder-paint-probe';
import { useLadderActions } from './use-ladder-actions';
import { clickKey, type LadderClick } from './use-ladder-clicks';
import { useLadderColumn, type LadderColumn } from './use-ladder-column';
import './ladder.css';

/** One row, drawn again only when what it shows changed: a tick re-renders the rows it moved. */
const LadderRow = memo(LadderRowCells, sameRow);

/** Quantity presets in lots; `ticket` takes the ticket's quantity. */
const PRESETS = ['ticket', 1, 2, 5, 10] as const;
type Preset = (typeof PRESETS)[number];

/** How often the volume at each price is read again from main (main answers from memory). */
const VOLUME_EVERY_MS = 2_000;

const NO_ORDERS: readonly LadderOrder[] = [];
const NO_LADDER_ORDERS: LadderOrders = { byPrice: new Map(), shown: [], listed: new Set() };

/** The order ids the ladder's clicks placed, as one key ("" for none). */
function placedIds(clicks: ReadonlyMap<string, LadderClick>): string {
  const ids: string[] = [];
  for (const c of clicks.values()) if (c.state.kind === 'placed') ids.push(c.state.orderId);
  return ids.sort().join(' ');
}

/**
 * The price ladder (docs/ladder.md): a fixed column of prices one tick apart around the last
 * price, recentred on demand, with the book's bids and offers, the trader's working orders, the
 * last traded price and the volume traded at each price this session. A click on the bid side
 * buys there, on the offer side sells (a stop on the far side of the market); a click on a
 * working order cancels it, a drag moves it. Every order goes through `orders.place` /
 * `orders.modify` / `orders.cancel`, so main's exactly-once path and risk guard apply.
 *
 * On an account without market data it says so instead (docs/kite.md §The plan).
 */
export function LadderPanel() {
  return (
    <NeedsMarketData title="Ladder" className="ladder-panel" what="The price ladder">
      <LiveLadder />
    </NeedsMarketData>
  );
}

/**
 * What the column draws of the order list and the account: the working orders at its prices (a
 * change to any other order of a large book leaves the same object, so the ladder does not render
 * for it), the position, and the volume traded at each price.
 */
function useLadderBook(token: number | null, prices: readonly number[], clickedIds: string) {
  const lo = prices.at(-1) ?? 0;
  const hi = prices[0] ?? 0;
  const kept = useRef<LadderOrders | null>(null);
  const selectShown = useCallback(
    (all: Order[]) => {
      const next = ladderOrders(all, token ?? 0, { lo, hi }, new Set(clickedIds.split(' ')), kept.current);
      kept.current = next;
      return next;
    },
    [token, lo, hi, clickedIds],
  );
  const orders = useQuery({ ...orderQueries.list(), select: selectShown }).data ?? NO_LADDER_ORDERS;
  const selectPosition = useCallback(
    (ps: Position[]) => ps.filter((p) => p.instrumentToken === token && p.quantity !== 0),
    [token],
  );
  const positions = useQuery({ ...portfolioQueries.positions(), select: selectPosition }).data ?? [];
  const volume = useQuery({
    queryKey: ['market', 'volumeAtPrice', token],
    queryFn: () => call('market.volumeAtPrice', { instrumentToken: token ?? 0 }),
    enabled: token !== null,
    refetchInterval: VOLUME_EVERY_MS,
  }).data;
  const volumes = useMemo(() => new Map((volume?.levels ?? []).map((l) => [toUnits(l.price), l.volume])), [volume]);
  return { orders, positions, volumes };
}

/** How much a click sends: a preset number of lots or the ticket's quantity, in the ticket's product (MIS by default). */
function useLadderQuantity(instrument: Instrument | undefined, token: number | null) {
  const draft = useTicketDraft();
  const [preset, setPreset] = useState<Preset>(1);
  const lot = instrument?.lotSize ?? 1;
  const ticketQty = draft.instrumentToken === token ? parseNumber(draft.quantity) : Number.NaN;
  const ticketOrLot = Number.isFinite(ticketQty) && ticketQty > 0 ? ticketQty : lot;
  const quantity = preset === 'ticket' ? ticketOrLot : preset * lot;
  const product =
    instrument && allowedProducts(instrument).includes(draft.product) && draft.productChosen ? draft.product : 'MIS';
  return { preset, setPreset, lot, ticketOrLot, quantity, product };
}

/** What the ladder's handlers read: always the latest, so the memoised rows' callbacks stay the same. */
interface LadderState {
  readonly instrument: Instrument | undefined;
  readonly book: ReturnType<typeof useBook>;
  readonly last: number | null;
  readonly quantity: number;
  readonly product: OrderRequest['product'];
  readonly shown: LadderOrders['shown'];
  readonly actions: ReturnType<typeof useLadderActions>;
  readonly setSelected: (price: number) => void;
  /** For the keyboard: the column, and the price it acts at (the selection, else the last price, else the middle). */
  readonly keys: {
    readonly prices: readonly number[];
    readonly tick: number;
    readonly at: number;
    readonly byPrice: LadderOrders['byPrice'];
    readonly column: LadderColumn;
  };
}

/**
 * A click on a side places there (a stop on the far side of the market), a click on a working
 * order cancels it, a drop moves it, and the keyboard does the same at the selected price
 * (docs/ladder.md §Keyboard).
 */
function useLadderHandlers(state: LadderState) {
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  });
  const { setSelected } = state;
  const onClick = useCallback(
    (side: 'bid' | 'offer', price: number) => {
      const s = latest.current;
      if (!s.instrument) return;
      const order = clickOrder(
        side,
        price,
        { bid: s.book?.bid ?? null, ask: s.book?.ask ?? null, last: s.last },
        s.quantity,
        s.product,
        s.instrument,
      );
      setSelected(price);
      s.actions.place(side, price, order, s.last);
    },
    [setSelected],
  );
  const onCancel = useCallback((orderId: string) => latest.current.actions.cancel(orderId), []);
  const onDrop = useCallback((orderId: string, to: number) => {
    const s = latest.current;
    const o = s.shown.find((x) => x.orderId === orderId);
    if (!o) return;
    const from = ladderPriceOf(o);
    const changes = dragChanges(o, to);
    if (from === null || !changes) return;
    s.actions.move(o, from, to, changes, s.last);
  }, []);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const { prices, tick, at, byPrice, column } = state.keys;
    const id = shortcutFor('ladder', e);
    if (!id || prices.length === 0) return;
    e.preventDefault();
    const tickUnits = toUnits(tick);
    if (id === 'ladder-up' || id === 'ladder-down') {
      const next = id === 'ladder-up' ? at + tickUnits : Math.max(tickUnits, at - tickUnits);
      setSelected(next);
      // Past the column's ends the column recentres on the selection.
      if (next > (prices[0] ?? 0) || next < (prices.at(-1) ?? 0)) column.centreOn(fromUnits(next));
    } else if (id === 'ladder-buy') onClick('bid', at);
    else if (id === 'ladder-sell') onClick('offer', at);
    else if (id === 'ladder-centre') column.recentre();
    else if (id === 'ladder-cancel') for (const o of byPrice.get(at) ?? []) onCancel(o.orderId);
  };
  return { onClick, onCancel, onDrop, onKeyDown };
}

function LiveLadder() {
  const { token, instrument } = useShownInstrument();
  useMarketSubscription('ladder', token === null ? [] : [token], 'full');
  const book = useBook(token);
  const quote = useQuote(token);
  const tick = instrument?.tickSize ?? 0.05;
  const last = quote?.lastPrice ?? instrument?.lastPrice ?? null;
  const column = useLadderColumn(token, last, tick);
  const { prices, scroller } = column;

  const actions = useLadderActions();
  const { orders, positions, volumes } = useLadderBook(token, prices, placedIds(actions.clicks));
  const { byPrice, shown } = orders;
  const size = useLadderQuantity(instrument, token);
  const { quantity, product } = size;

  // The selected row (price units) belongs to the instrument it was chosen on.
  const [selection, setSelection] = useState<{ token: number | null; price: number | null }>({
    token: null,
    price: null,
  });
  const selected = selection.token === token ? selection.price : null;
  const setSelected = useCallback((price: number) => setSelection({ token, price }), [token]);
  const lastUnits = last !== null ? toUnits(last) : null;
  useLadderPaintProbe(book);

  const handlers = useLadderHandlers({
    instrument,
    book,
    last,
    quantity,
    product,
    shown,
    actions,
    setSelected,
    keys: { prices, tick, at: selected ?? lastUnits ?? prices[Math.floor(prices.length / 2)] ?? 0, byPrice, column },
  });

  // The selected row kept in view as the arrows move it, with the line of why under it when a
  // click there was refused or is not yet confirmed.
  const clicks = actions.clicks;
  useEffect(() => {
    if (selected === null) return;
    const row = scroller.current?.querySelector<HTMLElement>('tr[data-selected]');
    const note = row?.nextElementSibling;
    if (note instanceof HTMLElement && note.classList.contains('ladder__note-row'))
      note.scrollIntoView({ block: 'nearest' });
    row?.scrollIntoView({ block: 'nearest' });
  }, [selected, clicks, scroller]);

  if (!instrument) {
    return (
      <Panel title="Ladder" className="ladder-panel">
        <p className="empty">Select an instrument on the watchlist</p>
      </Panel>
    );
  }
  return (
    <Panel
      title="Ladder"
      className="ladder-panel"
      actions={
        <span className="ladder__head" data-testid="ladder-instrument">
          <strong>{instrument.tradingsymbol}</strong> <span className="muted">{instrument.exchange}</span>
        </span>
      }
    >
      <div className="ladder__bar">
        <LadderHeader positions={positions} last={last ?? undefined} tick={tick} />
        <LadderQuantityPicker size={size} />
        <button
          type="button"
          className={`small${column.detached ? ' primary' : ''}`}
          onClick={column.recentre}
          title="Centre on the last price and follow it again (C)"
          data-testid="ladder-centre"
        >
          {column.detached ? 'Back to price' : 'Centre'}
        </button>
      </div>
      {prices.length === 0 ? (
        <p className="empty">Waiting for the last price…</p>
      ) : (
        <div
          ref={scroller}
          className="ladder__scroll"
          tabIndex={0}
          role="group"
          aria-label={`Price ladder of ${instrument.tradingsymbol}: arrows choose a price, B buys, S sells, Del cancels, C centres`}
          onKeyDown={handlers.onKeyDown}
          onScroll={column.onScroll}
        >
          <LadderTable
            prices={prices}
            tick={tick}
            book={book}
            orders={orders}
            actions={actions}
            volumes={volumes}
            lastUnits={lastUnits}
            selected={selected}
            quantity={quantity}
            onClick={handlers.onClick}
            onCancel={handlers.onCancel}
            onDrop={handlers.onDrop}
            onSelect={setSelected}
          />
        </div>
      )}
      <p className="ladder__status small" aria-live="polite" data-testid="ladder-status">
        {actions.last ?? (selected !== null ? `Selected ${formatPrice(fromUnits(selected), tick)}` : '')}
      </p>
    </Panel>
  );
}

/** The quantity presets, in lots (or units when a lot is one), or the ticket's; and what a click sends. */
function LadderQuantityPicker({ size }: { readonly size: ReturnType<typeof useLadderQuantity> }) {
  const { lot } = size;
  return (
    <>
      <label className="ladder__qty small">
        Qty{' '}
        <select
          aria-label="Ladder quantity"
          value={String(size.preset)}
          onChange={(e) => size.setPreset(PRESETS.find((p) => String(p) === e.target.value) ?? 1)}
        >
          {PRESETS.map((p) => (
            <option key={p} value={String(p)}>
              {p === 'ticket'
                ? `Ticket's (${formatQty(size.ticketOrLot)})`
                : lot > 1
                  ? `${p} lot${p > 1 ? 's' : ''} (${formatQty(p * lot)})`
                  : formatQty(p)}
            </option>
          ))}
        </select>
      </label>
      <span className="muted small" data-testid="ladder-quantity">
        {formatQty(size.quantity)} · {size.product}
      </span>
    </>
  );
}

/**
 * The column's rows: at each price the book's bid and offer, the trader's working orders either
 * side (with what is happening to them), the volume traded there, and the last, best and
 * selected prices marked.
 */
function LadderTable(props: {
  readonly prices: readonly number[];
  readonly tick: number;
  readonly book: ReturnType<typeof useBook>;
  readonly orders: LadderOrders;
  readonly actions: ReturnType<typeof useLadderActions>;
  readonly volumes: ReadonlyMap<number, number>;
  readonly lastUnits: number | null;
  readonly selected: number | null;
  readonly quantity: number;
  readonly onClick: (side: 'bid' | 'offer', price: number) => void;
  readonly onCancel: (orderId: string) => void;
  readonly onDrop: (orderId: string, to: number) => void;
  readonly onSelect: (price: number) => void;
}) {
  const { book, tick, actions, volumes } = props;
  const { byPrice, listed } = props.orders;
  const { bids, offers } = useMemo(() => bookByPrice(book?.depth ?? null), [book]);
  const bestBid = book?.bid !== null && book?.bid !== undefined ? toUnits(book.bid) : null;
  const bestOffer = book?.ask !== null && book?.ask !== undefined ? toUnits(book.ask) : null;
  const volumeMax = Math.max(1, ...volumes.values());
  const arriving = useMemo(() => {
    const m = new Map<number, string>();
    for (const a of actions.actions.values())
      if (a.kind === 'moving' && a.to !== undefined && a.from !== undefined && !a.failed)
        m.set(a.to, formatPrice(fromUnits(a.from), tick));
    return m;
  }, [actions.actions, tick]);
  return (
    <table className="grid ladder" aria-label="Price ladder" style={{ '--vmax': volumeMax } as CSSProperties}>
      <colgroup>
        <col className="ladder__col-orders" />
        <col className="ladder__col-side" />
        <col className="ladder__col-price" />
        <col className="ladder__col-side" />
        <col className="ladder__col-orders" />
        <col className="ladder__col-volume" />
      </colgroup>
      <thead>
        <tr>
          <th>Buys</th>
          <th className="num">Bid</th>
          <th className="num">Price</th>
          <th className="num">Offer</th>
          <th>Sells</th>
          <th className="num">Volume</th>
        </tr>
      </thead>
      <tbody>
        {props.prices.map((p) => {
          const here = byPrice.get(p) ?? NO_ORDERS;
          const ordersKey = here
            .map((o) => {
              const a = actions.actions.get(o.orderId);
              return `${o.orderId}:${o.pending}:${a ? `${a.kind}:${a.failed ?? ''}` : ''}`;
            })
            .join('|');
          const buyClick = actions.clicks.get(clickKey('bid', p));
          const sellClick = actions.clicks.get(clickKey('offer', p));
          return (
            <LadderRow
              key={p}
              price={p}
              label={formatPrice(fromUnits(p), tick)}
              bid={bids.get(p) ?? null}
              offer={offers.get(p) ?? null}
              volume={volumes.get(p) ?? 0}
              last={p === props.lastUnits}
              bestBid={p === bestBid}
              bestOffer={p === bestOffer}
              selected={p === props.selected}
              buys={here.filter((o) => o.side === 'BUY')}
              sells={here.filter((o) => o.side === 'SELL')}
              ordersKey={ordersKey}
              buyClick={visibleClick(buyClick?.state ?? null, listed)}
              sellClick={visibleClick(sellClick?.state ?? null, listed)}
              actions={actions.actions}
              arriving={arriving.get(p) ?? null}
              quantity={props.quantity}
              onClick={props.onClick}
              onCancel={props.onCancel}
              onDrop={props.onDrop}
              onSelect={props.onSelect}
            />
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * A placed click's mark gives way once the order list shows the order: working, it sits in its
 * row itself; filled or cancelled at once, the blotter and the position header say so.
 */
function visibleClick<T extends { kind: string; orderId?: string }>(
  state: T | null,
  listed: ReadonlySet<string>,
): T | null {
  if (state?.kind === 'placed' && state.orderId !== undefined && listed.has(state.orderId)) return null;
  return state;
}

/** The header: the position in the instrument, its average and P&L at the last price. */
function LadderHeader(props: {
  readonly positions: readonly Position[];
  readonly last: number | undefined;
  readonly tick: number;
}) {
  if (props.positions.length === 0)
    return (
      <span className="ladder__position muted small" data-testid="ladder-position">
        No position
      </span>
    );
  return (
    <span className="ladder__position small" data-testid="ladder-position">
      {props.positions.map((p) => {
        const mark = markPosition(p, props.last);
        return (
          <span key={p.product} className="ladder__pos">
            Position <b className={signClass(p.quantity)}>{formatSignedQty(p.quantity)}</b> {p.product} @{' '}
            <b>{formatPrice(p.averagePrice, props.tick)}</b> · P&amp;L{' '}
            <b className={signClass(mark.pnl)} data-testid="ladder-pnl">
              {formatPnl(mark.pnl)}
            </b>
          </span>
        );
      })}
    </span>
  );
}
