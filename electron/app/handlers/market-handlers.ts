import type { Handlers } from '../dispatcher';
import type { SubscriptionRegistry } from '../market/subscription-registry';
import type { ActiveCore } from '../session/active-core';

/** `instruments.list`, `candles.get`, `market.subscribe`, `quotes.get`, `market.status`, `options.chain`. */
export function marketHandlers(
  active: ActiveCore,
  registry: SubscriptionRegistry,
): Pick<
  Handlers,
  'instruments.list' | 'candles.get' | 'market.subscribe' | 'quotes.get' | 'market.status' | 'options.chain'
> {
  return {
    // From what main read at login: a second window's list costs the broker nothing.
    'instruments.list': async (input) => [...(await active.current().catalog.list(input?.exchange))],
    'candles.get': async ({ instrumentToken, interval, from, to }) => [
      ...(await active
        .current()
        .broker.getCandles(instrumentToken, { interval, ...(from ? { from } : {}), ...(to ? { to } : {}) })),
    ],
    'market.subscribe': async ({ owner, tokens, mode }) => {
      // The UI's owners have their own namespace: no renderer can replace what main watches for alerts.
      registry.set(`ui:${owner}`, tokens, mode);
      const union = registry.subscriptions();
      active.subscribe(union.tokens, union.modes);
      return { subscribed: union.tokens.size };
    },
    'quotes.get': async ({ tokens }) => [...(await active.current().broker.getQuotes(tokens))],
    'market.status': async () => active.current().broker.marketStatus(),
    'options.chain': async ({ underlying, expiry, strikes }) =>
      active
        .current()
        .broker.optionChain({ underlying, ...(expiry ? { expiry } : {}), ...(strikes ? { strikes } : {}) }),
  };
}
