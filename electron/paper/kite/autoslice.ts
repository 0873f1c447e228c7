import { fromUnits } from '@shared/trading/money';
import type { WireOrderRequest } from '../../wire/rest-schemas';
import type { BrokerState } from '../context';
import { checkSession, toPlaceRequest } from '../routes/orders';
import { Problem } from '../problem';
import type { KiteState } from './context';
import { KiteError, fromProblem, inputError } from './errors';
import { protectRequest } from './protected-request';

/**
 * `autoslice=true` on `POST /orders/:variety` (docs/kite.md §Autoslice; kiteconnect 5.3.0, pykiteconnect
 * 5.2.0, April 2026): an order above the contract's freeze quantity is split by the broker into
 * slices of at most that size — at most 10 — each placed as its own order under the same tag.
 * The reply is a parent `order_id` and `children[]`, one per slice: `{order_id}` when it was
 * placed, `{error: {code, error_type, message, data}}` when it was refused (a slice the margin
 * cannot carry is refused with a MarginException, and nothing of it is created).
 */

/** Kite caps a sliced order at 10 slices, in line with its 10 orders a second. */
export const MAX_SLICES = 10;

/** The parent ids this dialect hands out: not orders (Kite's parent is not one either). */
let parentSeq = 0;

export function autoslice(
  state: BrokerState,
  kite: KiteState,
  body: WireOrderRequest,
  protection: number | null,
  now: number,
): { order_id: string; children: Array<{ order_id: string } | { error: Record<string, unknown> }> } {
  const instrument = state.market.lookup(body.exchange, body.tradingsymbol);
  if (!instrument) throw inputError('tradingsymbol', `No instrument ${body.tradingsymbol} on ${body.exchange}`);
  const lot = instrument.lotSize;
  const perSlice = Math.max(lot, Math.floor(instrument.freezeQuantity / lot) * lot);
  if (body.quantity < perSlice + lot)
    throw new KiteError(
      400,
      'InputException',
      `Quantity should be greater than or equal to ${perSlice + lot} for order slicing.`,
    );
  const slices = Math.ceil(body.quantity / perSlice);
  if (slices > MAX_SLICES)
    throw inputError(
      'quantity',
      `${body.quantity} would make ${slices} slices of at most ${perSlice}; order slicing makes at most ${MAX_SLICES}`,
    );
  const children: Array<{ order_id: string } | { error: Record<string, unknown> }> = [];
  for (let n = 0; n < slices; n++) {
    const quantity = Math.min(perSlice, body.quantity - n * perSlice);
    try {
      const request = toPlaceRequest(state, { ...body, quantity });
      checkSession(request, now);
      const { request: sent, extras } = protectRequest(state, request, protection);
      const need = state.engine.quote(sent).totalUnits;
      const available = state.engine.availableMarginUnits();
      if (need > 0 && need > available)
        throw new KiteError(
          400,
          'MarginException',
          `Insufficient funds. Required margin is ${fromUnits(need).toFixed(2)} but available margin is ${fromUnits(Math.max(0, available)).toFixed(2)}.`,
        );
      const o = state.engine.place(sent, now);
      kite.extras.set(o.orderId, extras);
      children.push({ order_id: o.orderId });
    } catch (e) {
      const err = e instanceof Problem ? fromProblem(e) : e;
      if (!(err instanceof KiteError)) throw e;
      children.push({ error: { code: err.status, error_type: err.errorType, message: err.message, data: null } });
    }
  }
  parentSeq += 1;
  return { order_id: String(270_000_000_000 + parentSeq), children };
}
