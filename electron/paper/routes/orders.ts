import { OrderStatus } from '@shared/domain/order';
import { toIstIso } from '@shared/lib/ist-time';
import { fromUnits, toUnits } from '@shared/trading/money';
import { takesPrice, takesTrigger, validateOrder } from '@shared/trading/rules';
import { WireBasketMarginRequest, WireOrderChanges, WireOrderRequest } from '../../wire/rest-schemas';
import { basketQuote } from '../basket-margin';
import { sessionAt } from '../calendar';
import type { BrokerState, Route } from '../context';
import { readJson } from '../http-io';
import type { PaperInstrument } from '../instruments';
import type { PlaceRequest } from '../matching';
import type { OrderReads } from '../order-book-lag';
import { Problem, badField, notFound } from '../problem';
import { rulesProblem } from '../rules-wire';
import { parseOr400 } from '../validation';
import { wireHistoryEntry, wireOrder } from '../wire-views';

/**
 * The order endpoints: place, list, get, history, modify, cancel, and the margin calculator.
 *
 * Checks run in a fixed order a client can rely on: auth (401) → scope (403) → media type and
 * JSON (400) → field schema (400) → idempotency (409) → instrument and trading rules (400) →
 * margin and band (201, then REJECTED — not a 400, as real brokers do).
 */

/** Body → a validated PlaceRequest, or the 400 naming every broken rule (the /kite dialect's placement too). */
export function toPlaceRequest(state: BrokerState, body: WireOrderRequest): PlaceRequest {
  const instrument: PaperInstrument | undefined = state.market.lookup(body.exchange, body.tradingsymbol);
  if (!instrument) throw badField('tradingsymbol', `No instrument ${body.tradingsymbol} on ${body.exchange}`);
  const problem = rulesProblem(
    validateOrder(
      {
        exchange: body.exchange,
        transactionType: body.transaction_type,
        quantity: body.quantity,
        orderType: body.order_type,
        product: body.product,
        validity: body.validity,
        price: body.price,
        triggerPrice: body.trigger_price,
      },
      instrument,
    ),
  );
  if (problem) throw problem;
  return {
    instrument,
    clientOrderId: body.client_order_id ?? null,
    transactionType: body.transaction_type,
    quantity: body.quantity,
    orderType: body.order_type,
    product: body.product,
    validity: body.validity,
    priceUnits: takesPrice(body.order_type) && body.price ? toUnits(body.price) : null,
    triggerUnits: takesTrigger(body.order_type) && body.trigger_price ? toUnits(body.trigger_price) : null,
    variety: body.variety ?? 'regular',
  };
}

const WEEKDAY = new Intl.DateTimeFormat('en-IN', { timeZone: 'Asia/Kolkata', weekday: 'short' });
const DAY_MONTH = new Intl.DateTimeFormat('en-IN', { timeZone: 'Asia/Kolkata', day: 'numeric', month: 'short' });

/** "09:15 IST on Tue 24 Nov": when a session starts, as a refusal names it. */
function opensAt(at: number): string {
  return `${toIstIso(at).slice(11, 16)} IST on ${WEEKDAY.format(at)} ${DAY_MONTH.format(at)}`;
}

/**
 * The session check of docs/api.md §Sessions and the calendar: a regular order while its
 * exchange is closed, or an after-market order while it is in session, is a 400 naming
 * `variety` with the reason — nothing is created. The /kite dialect's placement runs it too.
 */
export function checkSession(r: PlaceRequest, now: number): void {
  const s = sessionAt(r.instrument.exchange, now);
  if (r.variety !== 'amo' && s.phase === 'closed') {
    const why = (s.detail ?? 'closed').replace(/^./, (c) => c.toLowerCase());
    throw badField(
      'variety',
      `${r.instrument.exchange} is closed (${why}); it opens at ${opensAt(s.nextOpen)}. ` +
        'Place it as an after-market order (variety amo) to send it at the open',
      'market_closed',
    );
  }
  if (r.variety === 'amo' && s.phase !== 'closed') {
    throw badField(
      'variety',
      `${r.instrument.exchange} is ${s.phase === 'open' ? 'open' : 'in its pre-open'}: place a regular order; ` +
        'after-market orders are for when it is closed',
      'market_open',
    );
  }
}

/**
 * The version a PATCH's `If-Match: "3"` requires (docs/api.md §PATCH); undefined without the
 * header or with `*` (any version). Anything else is a 400 naming the header.
 */
function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const m = /^\s*"(\d{1,9})"\s*$/.exec(header);
  if (!m) throw badField('If-Match', `must be an order version in quotes, such as "3", not ${header.slice(0, 40)}`);
  return Number(m[1]);
}

/**
 * A `since` cursor → its change number, or null when it names another run of the broker
 * (docs/api.md §Incremental reads); a 400 naming `since` when it is not a cursor at all.
 */
function sinceSeq(since: string, run: string): number | null {
  const m = /^([0-9a-f]{8})\.(0|[1-9][0-9]{0,15})$/.exec(since);
  if (!m) throw badField('since', 'must be a cursor from an earlier GET /orders reply, such as "3f9a12c4.1042"');
  const seq = Number(m[2]);
  if (!Number.isSafeInteger(seq)) throw badField('since', 'has a change number beyond 2^53');
  return m[1] === run ? seq : null;
}

/** The order as order reads show it (docs/api.md §A lagging order book): one not showing yet is 404. */
function orderOr404(reads: OrderReads, id: string) {
  const o = reads.order(id);
  if (!o) throw notFound(`Order ${id}`);
  return o;
}

export const orderRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/orders',
    access: 'trade',
    ordersLimit: true,
    async handle({ req, state, now }) {
      const body = parseOr400(WireOrderRequest, await readJson(req));
      // `uniqueClientIds: false` (--no-idempotency) models brokers whose order tag is not unique.
      // The engine, not the order reads: the broker's own dedupe never lags (docs/api.md §A lagging order book).
      if (body.client_order_id !== undefined && state.uniqueClientIds) {
        const existing = state.engine.orderByClientId(body.client_order_id);
        if (existing) {
          throw new Problem(
            409,
            'duplicate_client_order_id',
            `client_order_id ${body.client_order_id} already placed order ${existing.orderId}; nothing was created`,
            [{ field: 'client_order_id', message: `already used by order ${existing.orderId}` }],
            { order_id: existing.orderId },
          );
        }
      }
      const request = toPlaceRequest(state, body);
      checkSession(request, now);
      const o = state.engine.place(request, now);
      return {
        status: 201,
        body: { order_id: o.orderId, client_order_id: o.clientOrderId, status: o.status },
        headers: { Location: `/v1/orders/${o.orderId}` },
      };
    },
  },
  {
    method: 'GET',
    path: '/orders',
    access: 'read',
    handle({ state, query, realNow }) {
      const status = query.get('status');
      if (status !== null && !OrderStatus.safeParse(status).success) {
        throw badField('status', `must be one of ${OrderStatus.options.join(', ')}`);
      }
      const cid = query.get('client_order_id');
      // The cursor is the view's: a client continuing from it later gets what showed meanwhile.
      const reads = state.orderReads(realNow);
      const cursor = `${reads.run}.${reads.changeCursor()}`;
      const since = query.get('since');
      if (since !== null) {
        if (status !== null || cid !== null)
          throw badField(
            'since',
            'cannot be combined with status or client_order_id: a changed order may have left the filter',
          );
        const seq = sinceSeq(since, reads.run);
        // A cursor of another run (the broker restarted) or from the future: the whole list, marked full.
        const full = seq === null || seq > reads.changeCursor();
        const changed = full ? reads.allOrders() : reads.ordersChangedSince(seq);
        return { status: 200, body: { orders: changed.map(wireOrder), cursor, full }, etag: true };
      }
      const orders = reads
        .allOrders()
        .filter((o) => (status === null || o.status === status) && (cid === null || o.clientOrderId === cid))
        .map(wireOrder);
      return { status: 200, body: { orders, cursor }, etag: true };
    },
  },
  {
    method: 'GET',
    path: '/orders/:order_id',
    access: 'read',
    handle({ state, params, realNow }) {
      return { status: 200, body: { order: wireOrder(orderOr404(state.orderReads(realNow), params.order_id ?? '')) } };
    },
  },
  {
    method: 'GET',
    path: '/orders/:order_id/history',
    access: 'read',
    handle({ state, params, realNow }) {
      return {
        status: 200,
        body: { history: orderOr404(state.orderReads(realNow), params.order_id ?? '').history.map(wireHistoryEntry) },
        etag: true,
      };
    },
  },
  ...(['PATCH', 'PUT'] as const).map((method): Route => ({
    method,
    path: '/orders/:order_id',
    access: 'trade',
    async handle({ req, state, params, now }) {
      const id = params.order_id ?? '';
      const ifVersion = parseIfMatch(req.headers['if-match']);
      const changes = parseOr400(WireOrderChanges, await readJson(req));
      if (Object.keys(changes).length === 0) {
        throw badField('body', 'names nothing to change; send quantity, price, trigger_price, order_type or validity');
      }
      const o = state.engine.modify(
        id,
        {
          quantity: changes.quantity,
          price: changes.price,
          triggerPrice: changes.trigger_price,
          orderType: changes.order_type,
          validity: changes.validity,
        },
        now,
        ifVersion,
      );
      return { status: 200, body: { order_id: o.orderId, status: o.status, version: o.version } };
    },
  })),
  {
    method: 'DELETE',
    path: '/orders/:order_id',
    access: 'trade',
    handle({ state, params, now }) {
      const o = state.engine.cancel(params.order_id ?? '', now);
      return { status: 200, body: { order_id: o.orderId, status: o.status } };
    },
  },
  {
    method: 'POST',
    path: '/margins/orders',
    access: 'read',
    async handle({ req, state }) {
      const r = toPlaceRequest(state, parseOr400(WireOrderRequest, await readJson(req)));
      const q = state.engine.quote(r);
      return {
        status: 200,
        body: {
          margin: { total: fromUnits(q.totalUnits), order_value: fromUnits(q.orderValueUnits), leverage: q.leverage },
        },
      };
    },
  },
  {
    method: 'POST',
    path: '/margins/basket',
    access: 'read',
    async handle({ req, state }) {
      const body = parseOr400(WireBasketMarginRequest, await readJson(req));
      const b = basketQuote(
        body.orders.map((order, n) => {
          const r = legRequest(state, order, n);
          return { instrument: r.instrument, transactionType: r.transactionType, quote: state.engine.quote(r) };
        }),
      );
      return {
        status: 200,
        body: {
          margin: {
            initial: fromUnits(b.initialUnits),
            final: fromUnits(b.finalUnits),
            orders: b.legs.map((l) => ({
              exchange: l.instrument.exchange,
              tradingsymbol: l.instrument.tradingsymbol,
              total: fromUnits(l.quote.totalUnits),
              order_value: fromUnits(l.quote.orderValueUnits),
              leverage: l.quote.leverage,
            })),
          },
        },
      };
    },
  },
];

/** Leg `n` of a basket as a PlaceRequest; a broken rule's 400 names the leg (`orders.1.price`). */
function legRequest(state: BrokerState, order: WireOrderRequest, n: number): PlaceRequest {
  try {
    return toPlaceRequest(state, order);
  } catch (e) {
    if (!(e instanceof Problem)) throw e;
    const errors = e.errors.map((f) => ({ field: `orders.${n}.${f.field}`, message: f.message }));
    throw new Problem(e.status, e.code, errors.map((f) => `${f.field}: ${f.message}`).join('; ') || e.detail, errors);
  }
}
