import type { Handlers } from '../dispatcher';
import type { SubscriptionRegistry } from '../market/subscription-registry';
import type { ActiveCore } from '../session/active-core';

/** `instruments.list`, `candles.get`, `market.subscribe`. */
export function marketHandlers(
  active: ActiveCore,
  registry: SubscriptionRegistry,
): Pick<Handlers, 'instruments.list' | 'candles.get' | 'market.subscribe'> {
  return {
    'instruments.list': async (input) => [...(await active.current().broker.listInstruments(input?.exchange))],
    'candles.get': async ({ instrumentToken, interval, from, to }) => [
      ...(await active
        .current()
        .broker.getCandles(instrumentToken, { interval, ...(from ? { from } : {}), ...(to ? { to } : {}) })),
    ],
    'market.subscribe': async ({ owner, tokens }) => {
      const union = registry.set(owner, tokens);
      active.subscribe(union);
      return { subscribed: union.size };
    },
  };
}
