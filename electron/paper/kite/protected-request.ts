import type { BrokerState } from '../context';
import type { PlaceRequest } from '../matching';
import { isProtected, protect } from './protection';
import type { KiteOrderExtras } from './views';

/**
 * A placement as the exchange receives it under `market_protection` (docs/kite.md §Market
 * protection): a MARKET or SL-M order becomes a LIMIT or SL at its protected price; anything
 * else goes as it is. Returns what the dialect remembers of it beside the engine's record.
 */
export function protectRequest(
  state: BrokerState,
  request: PlaceRequest,
  protection: number | null,
): { request: PlaceRequest; extras: KiteOrderExtras } {
  if (!isProtected(request.orderType) || protection === null)
    return { request, extras: { marketProtection: protection ?? 0 } };
  const p = protect(
    state,
    request.instrument,
    request.transactionType,
    request.orderType,
    request.triggerUnits,
    protection,
  );
  return {
    request: { ...request, orderType: p.orderType, priceUnits: p.priceUnits },
    extras: { marketProtection: protection, protectedAs: { orderType: request.orderType, percent: p.percent } },
  };
}
