import type { CSSProperties, DragEvent } from 'react';
import { formatQty } from '../../lib/format';
import type { LadderOrder } from './ladder-model';
import type { ClickState } from './use-ladder-clicks';
import type { OrderAction } from './use-ladder-order-actions';

/** What one row draws: primitives and small lists compared by their `key`s, so a tick re-renders only the rows it moved. */
export interface LadderRowProps {
  /** Price units (the row's identity). */
  readonly price: number;
  readonly label: string;
  readonly bid: number | null;
  readonly offer: number | null;
  readonly volume: number;
  readonly last: boolean;
  readonly bestBid: boolean;
  readonly bestOffer: boolean;
  readonly selected: boolean;
  readonly buys: readonly LadderOrder[];
  readonly sells: readonly LadderOrder[];
  /** A signature of the two order lists and their actions: equal when nothing drawn changed. */
  readonly ordersKey: string;
  readonly buyClick: ClickState | null;
  readonly sellClick: ClickState | null;
  readonly actions: ReadonlyMap<string, OrderAction>;
  /** Orders moving into this row (their old price, for "from 1,500.00"). */
  readonly arriving: string | null;
  readonly quantity: number;
  /** Stable callbacks (ref-backed in the panel), so a row's memo holds across ticks. */
  readonly onClick: (side: 'bid' | 'offer', price: number) => void;
  readonly onCancel: (orderId: string) => void;
  readonly onDrop: (orderId: string, price: number) => void;
  readonly onSelect: (price: number) => void;
}

const DRAG_TYPE = 'application/x-tradedesk-order';

/**
 * One row of the price ladder (docs/ladder.md): the trader's working buys, the bid quantity (a
 * button: buy here), the price (the last traded one marked), the offer quantity (a button: sell
 * here), the working sells, and the volume traded at the price this session. A working order is
 * a button: click cancels it, dragging it to another row moves it there. Each click's state
 * shows in its own side's orders cell until the order appears: sending, not yet confirmed, or
 * not placed with the reason.
 */
export function LadderRowCells(p: LadderRowProps) {
  const drop = (e: DragEvent<HTMLTableRowElement>): void => {
    const id = e.dataTransfer.getData(DRAG_TYPE);
    if (!id) return;
    e.preventDefault();
    p.onDrop(id, p.price);
  };
  const over = (e: DragEvent<HTMLTableRowElement>): void => {
    if (e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault();
  };
  const cls = [
    'ladder__row',
    p.last ? 'ladder__row--last' : '',
    p.bestBid ? 'ladder__row--best-bid' : '',
    p.bestOffer ? 'ladder__row--best-offer' : '',
    p.selected ? 'is-selected' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const notes = [p.buyClick, p.sellClick].flatMap((c) => {
    const why = noteOf(c);
    return why ? [why] : [];
  });
  return (
    <>
      <tr className={cls} data-price={p.label} data-selected={p.selected || undefined} onDragOver={over} onDrop={drop}>
        <td className="ladder__orders ladder__orders--buy" data-testid={`ladder-buys-${p.label}`}>
          <Orders orders={p.buys} actions={p.actions} label={p.label} onCancel={p.onCancel} />
          <ClickCell state={p.buyClick} />
        </td>
        <td className="num ladder__side ladder__side--bid">
          <button
            type="button"
            tabIndex={-1}
            aria-label={`Buy ${formatQty(p.quantity)} at ${p.label}`}
            onClick={() => p.onClick('bid', p.price)}
          >
            {p.bid === null ? '' : formatQty(p.bid)}
          </button>
        </td>
        {/* A click on the price selects the row for the keys (the bid and offer cells select as they place). */}
        <th scope="row" className="num ladder__price" onClick={() => p.onSelect(p.price)}>
          {p.last ? (
            <span className="ladder__ltp" title="Last traded price">
              ▸ <span className="sr-only">last traded </span>
            </span>
          ) : null}
          {p.label}
          {p.arriving ? <span className="ladder__from small">from {p.arriving}</span> : null}
        </th>
        <td className="num ladder__side ladder__side--offer">
          <button
            type="button"
            tabIndex={-1}
            aria-label={`Sell ${formatQty(p.quantity)} at ${p.label}`}
            onClick={() => p.onClick('offer', p.price)}
          >
            {p.offer === null ? '' : formatQty(p.offer)}
          </button>
        </td>
        <td className="ladder__orders ladder__orders--sell" data-testid={`ladder-sells-${p.label}`}>
          <Orders orders={p.sells} actions={p.actions} label={p.label} onCancel={p.onCancel} />
          <ClickCell state={p.sellClick} />
        </td>
        <td className="num ladder__volume" style={{ '--v': p.volume } as CSSProperties}>
          {p.volume > 0 ? formatQty(p.volume) : ''}
        </td>
      </tr>
      {notes.length > 0 ? (
        // The whole reason, under its row and across the ladder: the cell is too narrow for it.
        <tr className="ladder__note-row">
          <td colSpan={6} className="ladder__note small" role="note" data-testid={`ladder-note-${p.label}`}>
            {notes.join(' · ')}
          </td>
        </tr>
      ) : null}
    </>
  );
}

function Orders(props: {
  readonly orders: readonly LadderOrder[];
  readonly actions: ReadonlyMap<string, OrderAction>;
  readonly label: string;
  readonly onCancel: (orderId: string) => void;
}) {
  return (
    <>
      {props.orders.map((o) => {
        const a = props.actions.get(o.orderId);
        const side = o.side === 'BUY' ? 'buy' : 'sell';
        // The action's answer in its cell (docs/ladder.md §Each state in its cell).
        const state = a
          ? a.failed
            ? a.failed
            : a.checking
              ? /^not yet confirmed/i.test(a.checking)
                ? 'not yet confirmed — checking'
                : a.checking
              : a.kind === 'moving'
                ? 'moving…'
                : 'cancelling…'
          : null;
        return (
          <button
            key={o.orderId}
            type="button"
            tabIndex={-1}
            draggable
            className={`ladder__order ladder__order--${side}${a && !a.failed ? ' is-busy' : ''}`}
            data-order-id={o.orderId}
            aria-label={`Cancel ${o.side} ${formatQty(o.pending)} ${o.orderType} at ${props.label} (order ${o.orderId}); drag to move it`}
            onDragStart={(e) => {
              e.dataTransfer.setData(DRAG_TYPE, o.orderId);
              e.dataTransfer.effectAllowed = 'move';
            }}
            onClick={() => props.onCancel(o.orderId)}
          >
            {o.side === 'BUY' ? 'B' : 'S'} {formatQty(o.pending)}
            {o.orderType !== 'LIMIT' ? <span className="small"> {o.orderType}</span> : null}
            {state ? <span className="ladder__state small"> {state}</span> : null}
          </button>
        );
      })}
    </>
  );
}

/** A click's state in its cell (docs/ladder.md §Each state in its cell). */
function ClickCell({ state }: { readonly state: ClickState | null }) {
  if (!state) return null;
  switch (state.kind) {
    case 'sending':
      return (
        <span className="ladder__click ladder__click--sending" data-state="sending">
          Sending…
        </span>
      );
    case 'placed':
      return (
        <span className="ladder__click ladder__click--placed" data-state="placed" data-order-id={state.orderId}>
          Placed
        </span>
      );
    case 'unconfirmed':
      return (
        <span className="ladder__click ladder__click--unconfirmed" data-state="unconfirmed" title={state.detail}>
          Not yet confirmed{state.clientOrderId ? ` · ${state.clientOrderId}` : ''}
        </span>
      );
    case 'refused':
      return (
        <span className="ladder__click ladder__click--refused" data-state="refused">
          {/^not sent\b/i.test(state.reason) ? 'Not sent' : 'Not placed'}
        </span>
      );
  }
}

/** The line a click's state adds under its row: why it was refused, or why it is not yet confirmed. */
function noteOf(state: ClickState | null): string | null {
  if (state?.kind === 'refused') return /^not /i.test(state.reason) ? state.reason : `Not placed: ${state.reason}`;
  if (state?.kind === 'unconfirmed') return `Not yet confirmed: ${state.detail}`;
  return null;
}

/**
 * A row re-renders when what it draws changed: its figures, its marks, its orders' signature
 * (the panel memoises `LadderRowCells` with it).
 */
export function sameRow(a: LadderRowProps, b: LadderRowProps): boolean {
  return (
    a.price === b.price &&
    a.label === b.label &&
    a.bid === b.bid &&
    a.offer === b.offer &&
    a.volume === b.volume &&
    a.last === b.last &&
    a.bestBid === b.bestBid &&
    a.bestOffer === b.bestOffer &&
    a.selected === b.selected &&
    a.ordersKey === b.ordersKey &&
    a.buyClick === b.buyClick &&
    a.sellClick === b.sellClick &&
    a.arriving === b.arriving &&
    a.quantity === b.quantity &&
    a.onClick === b.onClick &&
    a.onCancel === b.onCancel &&
    a.onDrop === b.onDrop &&
    a.onSelect === b.onSelect
  );
}
