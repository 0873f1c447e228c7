import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { isWorking, type Order } from '@shared/domain/order';
import type { Placement } from '@shared/domain/placement';
import { formatIstTime, formatPrice, formatQty } from '../../lib/format';
import { focusRow, tabStop } from '../../lib/row-navigation';
import { shortcutFor } from '../../lib/shortcuts';
import { ExportButton } from '../export/export-button';
import { useInstruments } from '../instruments/queries';
import { Panel } from '../layout/panel';
import { EmptyRow, PanelPlaceholder } from '../layout/panel-states';
import { usePollInterval } from '../layout/use-poll-interval';
import { PlacementActions } from '../placements/placement-actions';
import { CancelAllMenu } from '../safety/safety-buttons';
import {
  needsDecision,
  ordersByReference,
  PLACEMENT_MARK,
  pinnedPlacements,
  placementStateText,
  seenAtBrokerText,
} from '../placements/placement-model';
import { placementQueries } from '../placements/queries';
import { OrderView, type SortColumn, type SortSpec, type StatusGroup } from './blotter-model';
import { orderBookOf } from './order-book-store';
import { BENCH_BUILD, useBlotterPaintProbe } from './blotter-paint-probe';
import { ModifyOrderDialog } from './modify-order-dialog';
import { OrderHistoryDialog } from './order-history-dialog';
import { orderQueries, useCancelOrder } from './queries';
import type { ActionAnswer } from './action-answer';
import { useActionAnswer } from './use-action-answer';

/** How an action's answer looks: a refusal is an error, a doubt a warning, a done action plain. */
const ANSWER_CLASS: Readonly<Record<ActionAnswer['tone'], string>> = {
  done: 'muted',
  refused: 'inline-error',
  unconfirmed: 'inline-warning',
};
import { statusClass } from './status-class';
import { bracketCancelNotes, orderMessage } from './order-message';
import { bracketQueries } from '../brackets/queries';
import { useProductName } from '../session/use-broker-offers';
import { ActionsHeader } from '../layout/record-table';

/** Row height in px; fixed so the virtualizer never measures (measuring 10,000 rows is the slow path). */
const ROW_HEIGHT = 26;

/**
 * In the benchmark's build only, `?blotter=plain` renders every row without virtualization: the
 * dashboard bench's baseline in the same build and run. The app's build has no such mode.
 */
const PLAIN = BENCH_BUILD && new URLSearchParams(window.location.search).get('blotter') === 'plain';

const COLUMNS: ReadonlyArray<{ readonly id: SortColumn; readonly label: string; readonly num?: boolean }> = [
  { id: 'time', label: 'Time' },
  { id: 'symbol', label: 'Symbol' },
  { id: 'side', label: 'Side' },
  { id: 'quantity', label: 'Qty', num: true },
  { id: 'type', label: 'Type' },
  { id: 'product', label: 'Product' },
  { id: 'validity', label: 'Validity' },
  { id: 'price', label: 'Price', num: true },
  { id: 'trigger', label: 'Trigger', num: true },
  { id: 'average', label: 'Avg', num: true },
  { id: 'status', label: 'Status' },
  { id: 'message', label: 'Message' },
];

const GROUPS: ReadonlyArray<{ readonly id: StatusGroup; readonly label: string }> = [
  { id: 'all', label: 'All' },
  { id: 'working', label: 'Working' },
  { id: 'complete', label: 'Complete' },
  { id: 'rejected', label: 'Rejected' },
  { id: 'cancelled', label: 'Cancelled' },
];

/**
 * The blotter: every order of the day, filterable, sortable, virtualized — and above them, pinned,
 * every order not yet confirmed or waiting for the trader's decision, marked as such (the app's
 * state, never a broker status), until its real row replaces it (docs/money-path.md, "The money
 * path on screen").
 *
 * Rows are keyed by id and update time, so a changed row is a new element and its one-shot
 * flash animation runs again; unchanged rows keep their DOM. Only the rows in view (plus a few)
 * exist, so 10,000 orders cost what 40 do.
 */
export function Blotter() {
  const refetchInterval = usePollInterval('orders');
  const result = useQuery({ ...orderQueries.list(), refetchInterval });
  const [group, setGroup] = useState<StatusGroup>('all');
  const [symbol, setSymbol] = useState('');
  const [sort, setSort] = useState<SortSpec>({ column: 'time', descending: true });
  const [historyOf, setHistoryOf] = useState<Order | null>(null);
  const [modifying, setModifying] = useState<Order | null>(null);
  const placements = useQuery(placementQueries.list());
  const pinned = useMemo(() => pinnedPlacements(placements.data, result.data), [placements.data, result.data]);
  const seenAtBroker = useMemo(() => ordersByReference(pinned, result.data), [pinned, result.data]);
  // The sorted, filtered rows follow the page's order book one changed row at a time.
  const client = useQueryClient();
  const [view] = useState(() => new OrderView(orderBookOf(client)));
  useEffect(() => view.attach(), [view]);
  // Read on every render: it costs nothing unless the book changed (result.data re-renders us).
  const { rows, changed } = view.read({ group, symbol }, sort);
  // While the rest of a paged first answer loads, a count or a filter's matches would be short.
  const loading = orderBookOf(client).progress();
  useBlotterPaintProbe(result.dataUpdatedAt);

  const onSort = (column: SortColumn): void =>
    setSort((s) =>
      s.column === column ? { column, descending: !s.descending } : { column, descending: column === 'time' },
    );

  return (
    <Panel
      title="Orders"
      className="panel--blotter"
      source={{ ...result, queryKey: orderQueries.list().queryKey }}
      actions={
        <div className="toolbar">
          <div role="radiogroup" aria-label="Status filter" className="segmented">
            {GROUPS.map((g) => (
              <button
                key={g.id}
                type="button"
                role="radio"
                aria-checked={group === g.id}
                className={group === g.id ? 'is-on' : undefined}
                onClick={() => setGroup(g.id)}
              >
                {g.label}
              </button>
            ))}
          </div>
          <input
            type="search"
            aria-label="Filter by symbol"
            placeholder="Symbol…"
            value={symbol}
            onChange={(e) => setSymbol(e.target.value)}
            className="toolbar__search"
          />
          <CancelAllMenu />
          <span className="muted" data-testid="orders-count">
            {loading
              ? `Loading ${formatQty(loading.held)} of ${formatQty(loading.total)} orders`
              : `${formatQty(rows.length)} orders`}
          </span>
          <ExportButton book="orders" />
        </div>
      }
    >
      {result.data === undefined && pinned.length === 0 ? (
        <PanelPlaceholder what="orders" error={result.error} />
      ) : (
        <OrderTable
          pinned={pinned}
          seenAtBroker={seenAtBroker}
          rows={rows}
          changed={changed}
          sort={sort}
          onSort={onSort}
          onOpen={setHistoryOf}
          onModify={setModifying}
        />
      )}
      {historyOf ? <OrderHistoryDialog order={historyOf} onClose={() => setHistoryOf(null)} /> : null}
      {modifying ? <ModifyOrderDialog order={modifying} onClose={() => setModifying(null)} /> : null}
    </Panel>
  );
}

function OrderTable(props: {
  readonly pinned: readonly Placement[];
  readonly seenAtBroker: ReadonlyMap<string, Order>;
  readonly rows: Order[];
  readonly changed: ReadonlySet<string>;
  readonly sort: SortSpec;
  readonly onSort: (c: SortColumn) => void;
  readonly onOpen: (o: Order) => void;
  readonly onModify: (o: Order) => void;
}) {
  const { pinned, rows, changed } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const cancel = useCancelOrder();
  // Cancelled, not cancelled (the broker refused), or not yet confirmed while main reads the
  // order back: in the order's row and under the list (docs/contract.md §Modify and cancel answer honestly).
  const cancelAnswer = useActionAnswer('cancel', cancel);
  const { byToken } = useInstruments();
  const bracketNotes = useQuery({ ...bracketQueries.list(), select: bracketCancelNotes }).data ?? NO_NOTES;
  // Products as the session's broker names them (Upstox: I, D).
  const productName = useProductName();
  const { items, padTop, padBottom } = useRowWindow(rows, scrollRef);
  const keys = useRowKeys(rows, items, scrollRef, props.onModify, cancel.mutate);

  return (
    <div className="table-scroll" ref={scrollRef} data-testid="orders-scroll">
      <table
        aria-label="Orders"
        aria-rowcount={pinned.length + rows.length + 1}
        className="grid grid--blotter"
        {...keys.handlers}
      >
        <SortHeads sort={props.sort} onSort={props.onSort} />
        <tbody>
          {pinned.map((p, n) => (
            <PlacementRow
              key={p.clientOrderId}
              placement={p}
              seenAs={props.seenAtBroker.get(p.clientOrderId)}
              rowIndex={n + 2}
              productName={productName(p.order.product)}
            />
          ))}
          {padTop > 0 ? <tr aria-hidden="true" className="pad" style={{ height: padTop }} /> : null}
          {rows.length === 0 && pinned.length === 0 ? (
            <EmptyRow colSpan={COLUMNS.length + 1}>No orders</EmptyRow>
          ) : null}
          {items.map((item) => {
            const o = rows[item.index];
            if (!o) return null;
            return (
              <OrderRow
                key={`${o.orderId}@${o.updatedAt}`}
                order={o}
                tickSize={byToken.get(o.instrumentToken)?.tickSize}
                productName={productName(o.product)}
                bracketNote={bracketNotes.get(o.orderId)}
                rowIndex={pinned.length + item.index + 2}
                tabStop={keys.stop === o.orderId}
                flash={changed.has(o.orderId)}
                onOpen={props.onOpen}
                onModify={props.onModify}
                onCancel={cancel.mutate}
                cancelling={cancel.isPending && cancel.variables === o.orderId}
                answer={cancel.variables === o.orderId ? cancelAnswer : null}
              />
            );
          })}
          {padBottom > 0 ? <tr aria-hidden="true" className="pad" style={{ height: padBottom }} /> : null}
        </tbody>
      </table>
      {cancelAnswer && cancelAnswer.text !== 'Cancelled' ? (
        <p
          role={cancelAnswer.tone === 'refused' ? 'alert' : 'status'}
          className={ANSWER_CLASS[cancelAnswer.tone]}
          data-testid="cancel-answer"
          data-tone={cancelAnswer.tone}
        >
          {cancelAnswer.text.startsWith('Order ')
            ? cancelAnswer.text
            : `Order ${cancel.variables}: ${cancelAnswer.text}`}
        </p>
      ) : null}
    </div>
  );
}

/** The rows in view (plus a few) and the padding standing for the rest; every row in the bench's plain build. */
function useRowWindow(rows: readonly Order[], scrollRef: RefObject<HTMLDivElement | null>) {
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read in render by design
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    initialRect: { width: 1000, height: 600 },
    enabled: !PLAIN,
  });
  const items = PLAIN
    ? rows.map((_, index) => ({ index, start: index * ROW_HEIGHT, end: (index + 1) * ROW_HEIGHT }))
    : virtualizer.getVirtualItems();
  const total = PLAIN ? rows.length * ROW_HEIGHT : virtualizer.getTotalSize();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? total - (items[items.length - 1]?.end ?? 0) : 0;
  return { items, padTop, padBottom };
}

/**
 * The blotter's keyboard (docs/desk.md §Keyboard): ↑/↓ through the rows, M and Del on a working
 * order, one tab stop, and the focus kept on a row its order's change redrew.
 */
function useRowKeys(
  rows: readonly Order[],
  items: ReadonlyArray<{ readonly index: number }>,
  scrollRef: RefObject<HTMLDivElement | null>,
  onModify: (o: Order) => void,
  onCancel: (orderId: string) => void,
) {
  const focusedRef = useRefocusRedrawnRow(scrollRef);
  // One tab stop (roving focus): the last focused order's row while it is rendered, else the
  // first rendered row (docs/desk.md §Keyboard).
  const [lastFocused, setLastFocused] = useState<string | null>(null);
  const stop = tabStop(
    items.map((item) => rows[item.index]?.orderId),
    lastFocused,
  );

  const onKeyDown = (e: KeyboardEvent<HTMLTableElement>): void => {
    const row = e.target instanceof HTMLElement && e.target.matches(ORDER_ROW) ? e.target : null;
    const id = row ? shortcutFor('orders', e) : null;
    if (!row || id === null) return;
    if (id === 'order-next' || id === 'order-previous') {
      e.preventDefault();
      focusRow(e.currentTarget, row, ORDER_ROW, id === 'order-next' ? 1 : -1);
      return;
    }
    const o = rows.find((r) => r.orderId === row.dataset.orderId);
    if (!o || !isWorking(o.status) || id === 'order-history') return; // Enter: the row's own handler
    e.preventDefault();
    if (id === 'order-modify') onModify(o);
    else onCancel(o.orderId);
  };
  const handlers = {
    onKeyDown,
    onFocus: (e: FocusEvent<HTMLTableElement>): void => {
      if (e.target instanceof HTMLElement && e.target.matches(ORDER_ROW)) {
        focusedRef.current = e.target.dataset.orderId ?? null;
        setLastFocused(focusedRef.current);
      }
    },
    onBlur: (e: FocusEvent<HTMLTableElement>): void => {
      // The trader moved on (not into the row's own dialog): never pull the focus back.
      const to = e.relatedTarget;
      if (to instanceof Element && !e.currentTarget.contains(to) && !to.closest('[role="dialog"]')) {
        focusedRef.current = null;
      }
    },
  };
  return { stop, handlers };
}

/** The column heads, each sorting by its column (again: the other way). */
function SortHeads({ sort, onSort }: { readonly sort: SortSpec; readonly onSort: (c: SortColumn) => void }) {
  return (
    <thead>
      <tr aria-rowindex={1}>
        {COLUMNS.map((c) => (
          <th
            key={c.id}
            className={c.num ? 'num' : undefined}
            aria-sort={sort.column === c.id ? (sort.descending ? 'descending' : 'ascending') : 'none'}
          >
            <button type="button" className="th-button" onClick={() => onSort(c.id)}>
              {c.label}
              {sort.column === c.id ? (sort.descending ? ' ▾' : ' ▴') : ''}
            </button>
          </th>
        ))}
        <ActionsHeader />
      </tr>
    </thead>
  );
}

/** The blotter's order rows, for the keyboard (pinned placements are not orders yet). */
const ORDER_ROW = 'tr[data-order-id]';

/**
 * A row is redrawn as a new element when its order changes (its key carries the update time,
 * for the flash), which drops the focus a trader had on it: after a Modify or a Cancel from the
 * keyboard the focus would fall to the page. When the focus has fallen to the page, it goes back
 * to the last focused order's row, so ↑/↓ carry on from there. Returns that order id's holder.
 */
function useRefocusRedrawnRow(scrollRef: { readonly current: HTMLElement | null }) {
  const focused = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (focused.current === null || document.activeElement !== document.body) return;
    scrollRef.current?.querySelector<HTMLElement>(`${ORDER_ROW}[data-order-id="${focused.current}"]`)?.focus();
  });
  return focused;
}

const NO_NOTES: ReadonlyMap<string, string> = new Map();

/** One order. Memoised: a poll that changes 1% of orders re-renders 1% of rows. */
const OrderRow = memo(function OrderRow(props: {
  readonly order: Order;
  /** The instrument's tick, so prices show the decimals it needs (absent: up to four). */
  readonly tickSize: number | undefined;
  /** Its product as the session's broker names it. */
  readonly productName: string;
  /** Who cancelled it and why, when Tradedesk did for its bracket. */
  readonly bracketNote: string | undefined;
  readonly rowIndex: number;
  /** The row Tab lands on (the list's one tab stop). */
  readonly tabStop: boolean;
  readonly flash: boolean;
  readonly onOpen: (o: Order) => void;
  readonly onModify: (o: Order) => void;
  readonly onCancel: (orderId: string) => void;
  readonly cancelling: boolean;
  /** The answer to the last cancel of this order, when it was sent from here. */
  readonly answer: ActionAnswer | null;
}) {
  const o = props.order;
  const working = isWorking(o.status);
  const open = (): void => props.onOpen(o);
  const onKey = (e: KeyboardEvent<HTMLTableRowElement>): void => {
    if (e.target === e.currentTarget && shortcutFor('orders', e) === 'order-history') open();
  };
  return (
    <tr
      aria-rowindex={props.rowIndex}
      data-order-id={o.orderId}
      className={props.flash ? 'row--flash' : undefined}
      tabIndex={props.tabStop ? 0 : -1}
      onClick={open}
      onKeyDown={onKey}
    >
      <td>{formatIstTime(o.placedAt)}</td>
      <td className="sym">{o.tradingsymbol}</td>
      <td className={o.transactionType === 'BUY' ? 'buy' : 'sell'}>{o.transactionType}</td>
      <td className="num">
        {formatQty(o.filledQuantity)}/{formatQty(o.quantity)}
      </td>
      <td>{o.orderType}</td>
      <td>{props.productName}</td>
      <td>{o.validity}</td>
      <td className="num">{formatPrice(o.price, props.tickSize)}</td>
      <td className="num">{formatPrice(o.triggerPrice, props.tickSize)}</td>
      <td className="num">{formatPrice(o.averagePrice, props.tickSize)}</td>
      <td>
        <span className={`badge ${statusClass(o.status)}`}>{o.status}</span>
      </td>
      <td className="msg" title={orderMessage(o, props.tickSize, props.bracketNote) || undefined}>
        {orderMessage(o, props.tickSize, props.bracketNote)}
      </td>
      {/* Out of the tab order: M and Del do the same from the row (the list is one tab stop). */}
      <td className="row-actions" onClick={(e) => e.stopPropagation()}>
        {working ? (
          <>
            <button type="button" tabIndex={-1} aria-label={`Modify ${o.orderId}`} onClick={() => props.onModify(o)}>
              Modify
            </button>
            <button
              type="button"
              tabIndex={-1}
              aria-label={`Cancel ${o.orderId}`}
              disabled={props.cancelling}
              onClick={() => props.onCancel(o.orderId)}
            >
              {props.cancelling ? 'Cancelling…' : 'Cancel'}
            </button>
          </>
        ) : null}
        {props.answer ? (
          <span
            className={`small ${ANSWER_CLASS[props.answer.tone]}`}
            data-testid="row-answer"
            data-tone={props.answer.tone}
          >
            {props.answer.tone === 'unconfirmed' ? 'Not yet confirmed — checking' : props.answer.text}
          </span>
        ) : null}
      </td>
    </tr>
  );
});

/**
 * An order the app sent but the broker has not confirmed (or that waits for the trader's
 * decision after a restart), in the blotter's columns. Marked by the app's own words and a
 * striped row, so it is never read as a broker status.
 */
function PlacementRow(props: {
  readonly placement: Placement;
  readonly seenAs: Order | undefined;
  readonly rowIndex: number;
  /** Its product as the session's broker names it. */
  readonly productName: string;
}) {
  const { placement: p, seenAs, rowIndex } = props;
  const o = p.order;
  const text = seenAs ? seenAtBrokerText(seenAs) : placementStateText(p);
  return (
    <tr aria-rowindex={rowIndex} data-placement={p.clientOrderId} className={`placement-row placement-row--${p.state}`}>
      <td>{formatIstTime(p.journaledAt)}</td>
      <td className="sym">{o.tradingsymbol}</td>
      <td className={o.transactionType === 'BUY' ? 'buy' : 'sell'}>{o.transactionType}</td>
      <td className="num">0/{formatQty(o.quantity)}</td>
      <td>{o.orderType}</td>
      <td>{props.productName}</td>
      <td>{o.validity}</td>
      <td className="num">{formatPrice(o.price)}</td>
      <td className="num">{formatPrice(o.triggerPrice)}</td>
      <td className="num">–</td>
      <td>
        <span className={`placement-mark placement-mark--${p.state}`}>{PLACEMENT_MARK[p.state]}</span>
      </td>
      <td className="msg" title={`${text} (reference ${p.clientOrderId})`}>
        {text}
      </td>
      <td className="row-actions">{needsDecision(p) ? <PlacementActions placement={p} /> : null}</td>
    </tr>
  );
}

export { settledCancelText } from './action-answer';
