import { z } from 'zod';
import { istDayStart } from '@shared/lib/ist-time';
import { OrderType, TransactionType, Validity, isWorking } from '@shared/domain/order';
import type { WireOrderRequest } from '../../../wire/rest-schemas';
import type { BrokerState } from '../../context';
import type { PaperInstrument } from '../../instruments';
import { Problem } from '../../problem';
import { checkSession, toPlaceRequest } from '../../routes/orders';
import type { PaperOrder } from '../../types';
import { type UpstoxCtx, type UpstoxReply, type UpstoxRoute, type UpstoxState, upstoxApi } from '../context';
import {
  UPSTOX_CODES,
  UpstoxError,
  type UpstoxErrorEntry,
  errorEntry,
  fromProblem,
  inputError,
  orderNotFound,
} from '../errors';
import { byKey } from '../keys';
import { type UpstoxProduct, engineProduct, upstoxHistory, upstoxOrder, upstoxTrade } from '../views';
import { readJsonObject } from '../wire';

/**
 * Orders on the /upstox dialect (docs/upstox.md §Orders): v3 place, modify and cancel (ids
 * always in `data.order_ids[]` for a placement; `slice` splits at the freeze quantity), the
 * order book, an order's details and history — by `order_id` or by `tag`, which is a label, not
 * a key: every order carrying it is listed — and the trades. Every one of them runs the broker's
 * one engine, so an order placed here is on /v1 and /kite too.
 */

/** Upstox's `tag`: a label of up to 40 letters, digits, `_` or `-`. Never unique. */
const Tag = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be up to 40 letters, digits, "_" or "-"');
const Price = z.number().nonnegative().max(1e9);
const Quantity = z.number().int().positive().max(1e9);
const Product = z.enum(['I', 'D', 'MTF']);

const PlaceBody = z.object({
  quantity: Quantity,
  product: Product,
  validity: Validity,
  price: Price,
  tag: Tag.optional(),
  instrument_token: z.string().min(1).max(64),
  order_type: OrderType,
  transaction_type: TransactionType,
  disclosed_quantity: z.number().int().nonnegative().max(1e9).optional(),
  trigger_price: Price,
  is_amo: z.boolean().optional(),
  slice: z.boolean().optional(),
  market_protection: z.number().min(-1).max(100).optional(),
});

const ModifyBody = z.object({
  order_id: z.string().min(1).max(40),
  quantity: Quantity.optional(),
  validity: Validity.optional(),
  price: Price.optional(),
  order_type: OrderType.optional(),
  disclosed_quantity: z.number().int().nonnegative().max(1e9).optional(),
  trigger_price: Price.optional(),
  market_protection: z.number().min(-1).max(100).optional(),
});

/** The body parsed by `schema`, or a 400 UDAPI100036 naming the first field at fault. */
function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue?.path.map(String).join('.') || 'body';
  const value = issue?.path.length ? (body as Record<string, unknown>)[String(issue.path[0])] : null;
  throw inputError(field, issue?.message ?? 'is invalid', value ?? null);
}

const takesPrice = (t: OrderType): boolean => t === 'LIMIT' || t === 'SL';
const takesTrigger = (t: OrderType): boolean => t === 'SL' || t === 'SL-M';

/** One placement (one slice) on the engine: its order, or the Upstox error that refused it. */
function placeOne(
  { state, upstox, now }: Pick<UpstoxCtx, 'state' | 'upstox' | 'now'>,
  body: WireOrderRequest,
  product: UpstoxProduct,
): PaperOrder {
  const request = toPlaceRequest(state, body);
  checkSession(request, now);
  const o = state.engine.place(request, now);
  if (product === 'MTF') upstox.extras.set(o.orderId, { product });
  return o;
}

/** The placement body as the engine's request (before slicing). */
function toWire(i: PaperInstrument, b: z.infer<typeof PlaceBody>): WireOrderRequest {
  if (b.product === 'MTF' && i.instrumentType !== 'EQ')
    throw inputError('product', 'MTF is for equity delivery only', b.product);
  return {
    exchange: i.exchange,
    tradingsymbol: i.tradingsymbol,
    transaction_type: b.transaction_type,
    order_type: b.order_type,
    quantity: b.quantity,
    product: engineProduct(b.product, i.instrumentType === 'EQ'),
    validity: b.validity,
    price: takesPrice(b.order_type) && b.price > 0 ? b.price : null,
    trigger_price: takesTrigger(b.order_type) && b.trigger_price > 0 ? b.trigger_price : null,
    ...(b.tag === undefined ? {} : { client_order_id: b.tag }),
    variety: b.is_amo === true ? 'amo' : 'regular',
  };
}

/** The order `id` names (today's, as the order book shows it), or 400 UDAPI100010. */
function shownOrder(state: BrokerState, id: string, realNow: number, now: number): PaperOrder {
  const o = state.orderReads(realNow).order(id);
  if (!o || o.placedAt < istDayStart(now)) throw orderNotFound(id);
  return o;
}

/** The order `?order_id=` names (required), as `shownOrder`. */
function askedOrder({ state, query, realNow, now }: UpstoxCtx): PaperOrder {
  const id = query.get('order_id');
  if (!id) throw inputError('order_id', 'is required');
  return shownOrder(state, id, realNow, now);
}

/** The order a write names (the engine's own record: a write never waits for the order book). */
function ownOrder(state: BrokerState, id: string): PaperOrder {
  const o = state.engine.order(id);
  if (!o) throw orderNotFound(id);
  return o;
}

const closed = (o: PaperOrder, verb: string): UpstoxError =>
  new UpstoxError(
    400,
    UPSTOX_CODES.orderClosed,
    `Order cannot be ${verb} as it is already in ${o.status.toLowerCase()} state`,
    'order_id',
    o.orderId,
  );

/** `metadata.latency`: how long the paper broker took, in ms (Upstox reports its own). */
const metadata = (startedAt: number): Record<string, unknown> => ({ latency: Math.max(0, Date.now() - startedAt) });

/** An order write's answer: Upstox's success envelope with the `metadata` its writes carry. */
const written = (startedAt: number, data: unknown): UpstoxReply => ({
  body: { status: 'success', data, metadata: metadata(startedAt) },
});

const extrasOf = (upstox: UpstoxState, id: string) => upstox.extras.get(id);

export const orderRoutes: readonly UpstoxRoute[] = [
  {
    method: 'POST',
    path: '/v3/order/place',
    kind: 'api',
    limit: 'orders',
    async handle(ctx) {
      const startedAt = Date.now();
      const b = parse(PlaceBody, await readJsonObject(ctx.req));
      // X-Algo-Name (docs/upstox.md §Static IP): taken and not checked by the paper broker.
      const i = byKey(ctx.state.market, b.instrument_token);
      if (!i) throw inputError('instrument_token', 'Invalid Instrument key', b.instrument_token);
      const wire = toWire(i, b);
      const perSlice = Math.max(i.lotSize, Math.floor(i.freezeQuantity / i.lotSize) * i.lotSize);
      if (b.slice !== true || b.quantity <= perSlice) {
        const o = placeOne(ctx, wire, b.product);
        return written(startedAt, { order_ids: [o.orderId] });
      }
      // `slice: true` (docs/upstox.md §Slicing): slices of at most the freeze quantity, each its
      // own order under the same tag; the ones refused are listed beside the ids placed.
      const ids: string[] = [];
      const errors: Array<Record<string, unknown>> = [];
      for (let left = b.quantity; left > 0; left -= perSlice) {
        try {
          ids.push(placeOne(ctx, { ...wire, quantity: Math.min(perSlice, left) }, b.product).orderId);
        } catch (e) {
          const err = e instanceof Problem ? fromProblem(e) : e;
          if (!(err instanceof UpstoxError)) throw e;
          const entry: UpstoxErrorEntry = { code: err.code, message: err.message, propertyPath: err.propertyPath };
          errors.push({ ...errorEntry(entry), instrument_key: b.instrument_token, order_id: null });
        }
      }
      if (ids.length === 0) return { body: { status: 'error', errors, metadata: metadata(startedAt) } };
      const status = errors.length === 0 ? 'success' : 'partial_success';
      return {
        body: {
          status,
          data: { order_ids: ids },
          ...(errors.length ? { errors } : {}),
          metadata: metadata(startedAt),
        },
      };
    },
  },
  {
    method: 'PUT',
    path: '/v3/order/modify',
    kind: 'api',
    limit: 'orders',
    async handle({ req, state, now }) {
      const startedAt = Date.now();
      const b = parse(ModifyBody, await readJsonObject(req));
      const o = ownOrder(state, b.order_id);
      if (!isWorking(o.status)) throw closed(o, 'modified');
      const orderType = b.order_type ?? o.orderType;
      const changes = {
        quantity: b.quantity,
        price: b.price === undefined ? undefined : takesPrice(orderType) ? b.price : null,
        triggerPrice: b.trigger_price === undefined ? undefined : takesTrigger(orderType) ? b.trigger_price : null,
        orderType: b.order_type,
        validity: b.validity,
      };
      if (Object.values(changes).every((v) => v === undefined))
        throw inputError(
          'body',
          'names nothing to change; send quantity, price, trigger_price, order_type or validity',
        );
      state.engine.modify(o.orderId, changes, now);
      return written(startedAt, { order_id: o.orderId });
    },
  },
  {
    method: 'DELETE',
    path: '/v3/order/cancel',
    kind: 'api',
    limit: 'orders',
    handle({ query, state, now }) {
      const startedAt = Date.now();
      const id = query.get('order_id');
      if (!id) throw inputError('order_id', 'is required');
      const o = ownOrder(state, id);
      if (!isWorking(o.status)) throw closed(o, 'cancelled');
      state.engine.cancel(o.orderId, now);
      return written(startedAt, { order_id: o.orderId });
    },
  },
  // Only today's orders, as Upstox's order book (the market clock's IST day).
  upstoxApi('GET', '/v2/order/retrieve-all', 'standard', ({ state, upstox, realNow, now }) =>
    state
      .orderReads(realNow)
      .allOrders()
      .filter((o) => o.placedAt >= istDayStart(now))
      .map((o) => upstoxOrder(state.market, o, extrasOf(upstox, o.orderId))),
  ),
  upstoxApi('GET', '/v2/order/details', 'standard', (ctx) => {
    const o = askedOrder(ctx);
    return upstoxOrder(ctx.state.market, o, extrasOf(ctx.upstox, o.orderId));
  }),
  upstoxApi('GET', '/v2/order/history', 'standard', ({ state, upstox, query, realNow, now }) => {
    const id = query.get('order_id');
    const tag = query.get('tag');
    if (!id && !tag) throw inputError('order_id', 'name an order_id or a tag');
    if (id) {
      const o = shownOrder(state, id, realNow, now);
      if (tag && o.clientOrderId !== tag) throw orderNotFound(id);
      return upstoxHistory(state.market, o, extrasOf(upstox, o.orderId));
    }
    // A tag is a label: every order of today carrying it, each with its history, oldest first.
    const tagged = state
      .orderReads(realNow)
      .allOrders()
      .filter((o) => o.clientOrderId === tag && o.placedAt >= istDayStart(now));
    if (tagged.length === 0)
      throw new UpstoxError(400, UPSTOX_CODES.orderNotFound, 'Order not found', 'tag', tag?.slice(0, 40) ?? null);
    return tagged.flatMap((o) => upstoxHistory(state.market, o, extrasOf(upstox, o.orderId)));
  }),
  upstoxApi('GET', '/v2/order/trades/get-trades-for-day', 'standard', ({ state, upstox, now }) =>
    state.engine
      .trades()
      .filter((t) => t.at >= istDayStart(now))
      .map((t) => upstoxTrade(state.market, t, state.engine.order(t.orderId), extrasOf(upstox, t.orderId))),
  ),
  upstoxApi('GET', '/v2/order/trades', 'standard', (ctx) => {
    const o = askedOrder(ctx);
    return ctx.state.engine
      .trades()
      .filter((t) => t.orderId === o.orderId)
      .map((t) => upstoxTrade(ctx.state.market, t, o, extrasOf(ctx.upstox, o.orderId)));
  }),
];
