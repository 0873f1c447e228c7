import { istDayStart } from '@shared/lib/ist-time';
import { isWorking } from '@shared/domain/order';
import { z } from 'zod';
import { Exchange } from '@shared/domain/instrument';
import { OrderType, Product, TransactionType, Validity, Variety } from '@shared/domain/order';
import { fromUnits, toUnits } from '@shared/trading/money';
import { isStopCrossed, kiteCrossedStopMessage, type StopShape } from '@shared/trading/stop-trigger';
import type { WireOrderRequest } from '../../../wire/rest-schemas';
import type { BrokerState } from '../../context';
import { checkSession, toPlaceRequest } from '../../routes/orders';
import { type BasketLegQuote, basketQuote } from '../../basket-margin';
import { type KiteRoute, kiteApi } from '../context';
import { KiteError, inputError } from '../errors';
import type { PaperOrder } from '../../types';
import { autoslice } from '../autoslice';
import { protectRequest } from '../protected-request';
import { isProtected, protect, readProtection } from '../protection';
import { type KiteOrderExtras, kiteHistory, kiteOrder, kiteTrade } from '../views';
import { type Params, readJsonBody, readParams } from '../wire';

/**
 * Orders on the /kite dialect (docs/kite.md §Orders): place, modify and cancel by variety, the
 * order book, an order's history, trades, and the margin calculator. Every one of them runs the
 * broker's one engine, so an order placed here is on /v1 too, and the reverse.
 */

/** Kite's `tag`: up to 20 letters, digits, `_` or `-`. Not unique: the broker never deduplicates on it. */
const TAG = /^[A-Za-z0-9_-]{1,20}$/;

/** The varieties the paper broker has (Kite's co, iceberg and auction are not offered). */
function varietyOf(raw: string | undefined): Variety {
  const v = Variety.safeParse(raw);
  if (!v.success)
    throw inputError('variety', `must be regular or amo (the paper broker has no ${String(raw).slice(0, 20)} orders)`);
  return v.data;
}

/** The form of `POST /orders/:variety` as the engine's placement request (validated). */
function placement(p: Params, variety: Variety): WireOrderRequest {
  const tag = p.get('tag');
  if (tag !== undefined && !TAG.test(tag)) throw inputError('tag', 'must be up to 20 letters, digits, "_" or "-"');
  const need = <T extends string>(name: string, options: readonly T[]): T => {
    const v = p.oneOf(name, options);
    if (v === undefined) throw inputError(name, `is required: one of ${options.join(', ')}`);
    return v;
  };
  const quantity = p.int('quantity');
  if (quantity === undefined) throw inputError('quantity', 'is required');
  const exchange = need('exchange', Exchange.options);
  const validity = p.oneOf('validity', Validity.options) ?? 'DAY';
  noIocOnMcx(exchange, validity);
  return {
    exchange,
    tradingsymbol: p.need('tradingsymbol'),
    transaction_type: need('transaction_type', TransactionType.options),
    order_type: need('order_type', OrderType.options),
    quantity,
    product: need('product', Product.options),
    validity,
    price: p.price('price') ?? null,
    trigger_price: p.price('trigger_price') ?? null,
    ...(tag === undefined ? {} : { client_order_id: tag }),
    variety,
  };
}

/** MCX takes no IOC orders from the API (docs/kite.md §Smaller rules): a 400 naming `validity`. */
function noIocOnMcx(exchange: string, validity: string | undefined): void {
  if (exchange === 'MCX' && validity === 'IOC')
    throw inputError('validity', 'IOC orders are not allowed on MCX through the API; place it as DAY');
}

/** Kite's words for a cancel of an order its OMS no longer holds working (docs/kite.md §Orders). */
export const NOT_CANCELLABLE = 'Order cannot be cancelled as it is being processed. Try later.';

/**
 * Kite refuses a stop whose trigger the last price has already reached, on a placement and on a
 * change, in its own words (docs/kite.md §Smaller rules): it would trigger at once.
 */
function refuseCrossedStop(state: BrokerState, token: number, order: StopShape): void {
  const last = state.market.ltp(token);
  if (last > 0 && isStopCrossed(order, fromUnits(last)))
    throw new KiteError(400, 'InputException', kiteCrossedStopMessage(order.transactionType));
}

/** The order `:order_id` names, checked to be of `:variety` (Kite refuses a mismatch). */
function orderOf(state: BrokerState, id: string, variety: Variety) {
  const o = state.engine.order(id);
  if (!o) throw new KiteError(400, 'InputException', `Couldn't find that \`order_id\` (${id.slice(0, 30)}).`);
  if (o.variety !== variety) throw inputError('variety', `order ${id} is a ${o.variety} order, not ${variety}`);
  return o;
}

/** One entry of `POST /margins/orders`'s JSON array. */
const MarginItem = z.object({
  exchange: Exchange,
  tradingsymbol: z.string().min(1).max(64),
  transaction_type: TransactionType,
  variety: Variety.optional(),
  product: Product,
  order_type: OrderType,
  quantity: z.coerce.number().int().positive(),
  price: z.coerce.number().nonnegative().optional(),
  trigger_price: z.coerce.number().nonnegative().optional(),
});

/** Place, modify, cancel, list, history, trades and the margin calculator on /kite. */
export const orderRoutes: readonly KiteRoute[] = [
  kiteApi('POST', '/orders/:variety', 'orders', async ({ req, query, params, state, kite, now }) => {
    const variety = varietyOf(params.variety);
    const p = await readParams(req, query);
    const body = placement(p, variety);
    const protection = readProtection(p, body.order_type);
    // `algo_id` (an exchange-registered algo's id) is taken and not used (docs/kite.md §Smaller rules).
    p.get('algo_id');
    const slice = p.oneOf('autoslice', ['true', 'false'] as const);
    if (slice === 'true') return autoslice(state, kite, body, protection, now);
    const request = toPlaceRequest(state, body);
    checkSession(request, now);
    refuseCrossedStop(state, request.instrument.token, {
      transactionType: body.transaction_type,
      orderType: body.order_type,
      triggerPrice: body.trigger_price,
    });
    const { request: sent, extras } = protectRequest(state, request, protection);
    const o = state.engine.place(sent, now);
    kite.extras.set(o.orderId, extras);
    return { order_id: o.orderId };
  }),
  kiteApi('PUT', '/orders/:variety/:order_id', 'orders', async ({ req, query, params, state, kite, now }) => {
    const variety = varietyOf(params.variety);
    const id = params.order_id ?? '';
    const order = orderOf(state, id, variety);
    const p = await readParams(req, query);
    const orderType = p.oneOf('order_type', OrderType.options);
    const protection = readProtection(p, orderType);
    const changes = {
      quantity: p.int('quantity'),
      price: p.price('price'),
      triggerPrice: p.price('trigger_price'),
      orderType,
      validity: p.oneOf('validity', Validity.options),
    };
    if (Object.values(changes).every((v) => v === undefined))
      throw inputError('body', 'names nothing to change; send quantity, price, trigger_price, order_type or validity');
    noIocOnMcx(order.exchange, changes.validity);
    // The stop as it would stand after the change.
    refuseCrossedStop(state, order.token, {
      transactionType: order.transactionType,
      orderType: changes.orderType ?? order.orderType,
      triggerPrice:
        changes.triggerPrice !== undefined
          ? changes.triggerPrice
          : order.triggerUnits === null
            ? null
            : fromUnits(order.triggerUnits),
    });
    const reprotected = protectModification(state, order, changes, protection, kite.extras.get(id));
    const o = state.engine.modify(id, reprotected.changes, now);
    if (reprotected.extras) kite.extras.set(id, reprotected.extras);
    return { order_id: o.orderId };
  }),
  kiteApi('DELETE', '/orders/:variety/:order_id', 'orders', ({ params, state, now }) => {
    const variety = varietyOf(params.variety);
    const id = params.order_id ?? '';
    // Kite refuses to cancel an order that no longer works — filled, rejected, or cancelled
    // already (a repeated cancel) — as an OrderException (docs/kite.md §Orders).
    if (!isWorking(orderOf(state, id, variety).status)) throw new KiteError(400, 'OrderException', NOT_CANCELLABLE);
    const o = state.engine.cancel(id, now);
    return { order_id: o.orderId };
  }),
  // Kite's order book holds only today's orders (docs/kite.md §Orders): the market clock's IST day.
  kiteApi('GET', '/orders', 'default', ({ state, kite, realNow, now }) =>
    state
      .orderReads(realNow)
      .allOrders()
      .filter((o) => o.placedAt >= istDayStart(now))
      .map((o) => kiteOrder(o, kite.extras.get(o.orderId))),
  ),
  kiteApi('GET', '/orders/:order_id', 'default', ({ state, kite, params, realNow, now }) => {
    const id = params.order_id ?? '';
    // As the order book shows it (docs/kite.md §A lagging order book): not there yet reads as
    // unknown, and so does an order of an earlier day (docs/kite.md §Orders).
    const shown = state.orderReads(realNow).order(id);
    const o = shown && shown.placedAt >= istDayStart(now) ? shown : undefined;
    if (!o) throw new KiteError(400, 'InputException', `Couldn't find that \`order_id\` (${id.slice(0, 30)}).`);
    return kiteHistory(o, kite.extras.get(id));
  }),
  kiteApi('GET', '/orders/:order_id/trades', 'default', ({ state, params }) => {
    const id = params.order_id ?? '';
    // Trades never lag, so this reads the engine (docs/kite.md §A lagging order book).
    const o = state.engine.order(id);
    if (!o) throw new KiteError(400, 'InputException', `Couldn't find that \`order_id\` (${id.slice(0, 30)}).`);
    return state.engine
      .trades()
      .filter((t) => t.orderId === id)
      .map((t) => kiteTrade(t, o));
  }),
  kiteApi('GET', '/trades', 'default', ({ state }) =>
    state.engine.trades().map((t) => kiteTrade(t, state.engine.order(t.orderId))),
  ),
  kiteApi('POST', '/margins/orders', 'default', async ({ req, state }) =>
    marginLegs(state, await readJsonBody(req)).map((l) => marginView(l.item, l.quote.totalUnits, l)),
  ),
  kiteApi('POST', '/margins/basket', 'default', async ({ req, query, state }) => {
    const consider = query.get('consider_positions');
    // The engine's quote always counts positions and working orders (docs/kite.md §POST /margins/basket).
    if (consider !== null && consider !== 'true')
      throw inputError('consider_positions', 'must be true: the paper broker always considers positions');
    const mode = query.get('mode');
    if (mode !== null && mode !== 'compact') throw inputError('mode', 'must be compact (the only mode offered)');
    const legs = marginLegs(state, await readJsonBody(req));
    const b = basketQuote(legs);
    return {
      initial: marginView(undefined, b.initialUnits, undefined),
      final: marginView(undefined, b.finalUnits, undefined),
      orders: legs.map((l) => marginView(l.item, l.quote.totalUnits, l)),
      charges: { total: 0 },
    };
  }),
];

/** A modification's changes as the exchange applies them under `market_protection` (docs/kite.md §Market protection). */
interface Changes {
  readonly quantity: number | undefined;
  readonly price: number | undefined;
  readonly triggerPrice: number | undefined;
  readonly orderType: OrderType | undefined;
  readonly validity: Validity | undefined;
}

/**
 * Turning an order into MARKET or SL-M makes it a protected LIMIT or SL, priced now; moving the
 * trigger of a protected SL-M moves its limit with it. Anything else changes what it says, and an
 * order turned into LIMIT or SL is no longer protected.
 */
function protectModification(
  state: BrokerState,
  order: PaperOrder,
  changes: Changes,
  protection: number | null,
  extras: KiteOrderExtras | undefined,
): { changes: Changes; extras?: KiteOrderExtras } {
  const instrument = state.market.instrument(order.token);
  if (!instrument) return { changes };
  const trigger = changes.triggerPrice ?? (order.triggerUnits === null ? null : fromUnits(order.triggerUnits));
  const reprice = (as: 'MARKET' | 'SL-M', percent: number, sent: number) => {
    const p = protect(
      state,
      instrument,
      order.transactionType,
      as,
      trigger === null ? null : toUnits(trigger),
      percent,
    );
    return {
      changes: { ...changes, orderType: p.orderType, price: fromUnits(p.priceUnits) },
      extras: { marketProtection: sent, protectedAs: { orderType: as, percent: p.percent } },
    };
  };
  if (isProtected(changes.orderType) && protection !== null) return reprice(changes.orderType, protection, protection);
  if (
    changes.orderType === undefined &&
    extras?.protectedAs?.orderType === 'SL-M' &&
    changes.triggerPrice !== undefined
  )
    return reprice('SL-M', extras.protectedAs.percent, extras.marketProtection);
  if (changes.orderType !== undefined) return { changes, extras: { marketProtection: protection ?? 0 } };
  return { changes };
}

/** One parsed leg of a margin request: Kite's item, and the engine's quote of it. */
interface MarginLeg extends BasketLegQuote {
  readonly item: z.infer<typeof MarginItem>;
}

/** The JSON array of `POST /margins/orders` and `/margins/basket`, each entry quoted by the engine. */
function marginLegs(state: BrokerState, raw: unknown): MarginLeg[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > 50)
    throw inputError('body', 'must be a JSON array of 1–50 orders');
  return raw.map((item: unknown, n) => {
    const parsed = MarginItem.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw inputError(`${n}.${issue?.path.map(String).join('.') ?? ''}`, issue?.message ?? 'is invalid');
    }
    const it = parsed.data;
    const r = toPlaceRequest(state, {
      ...it,
      validity: 'DAY',
      price: it.price ?? null,
      trigger_price: it.trigger_price ?? null,
    });
    return { item: it, instrument: r.instrument, transactionType: r.transactionType, quote: state.engine.quote(r) };
  });
}

/**
 * Kite's margin object: the paper total under `span` (NRML) or `var` (MIS/CNC); the whole
 * basket's `initial`/`final` carry no leg (`item` undefined) and no leverage.
 */
function marginView(item: z.infer<typeof MarginItem> | undefined, totalUnits: number, leg: MarginLeg | undefined) {
  const total = fromUnits(totalUnits);
  return {
    type: item === undefined ? '' : item.exchange === 'MCX' ? 'commodity' : 'equity',
    tradingsymbol: item?.tradingsymbol ?? '',
    exchange: item?.exchange ?? '',
    span: item?.product === 'NRML' ? total : 0,
    exposure: 0,
    option_premium: 0,
    additional: 0,
    bo: 0,
    cash: 0,
    var: item !== undefined && item.product !== 'NRML' ? total : 0,
    pnl: { realised: 0, unrealised: 0 },
    leverage: leg?.quote.leverage ?? 0,
    charges: { total: 0 },
    total,
  };
}
