import type { Tick } from '@shared/domain/market';
import type { Handlers } from '../dispatcher';
import type { SubscriptionRegistry } from '../market/subscription-registry';
import type { ActiveCore } from '../session/active-core';
import { currentCaller } from '../../broker/http/caller-context';
import { MAIN_WINDOW } from '@shared/domain/workstation';

/** `instruments.list`, `candles.get`, `market.subscribe`, `quotes.get`, `market.status`, `options.chain`. */
export function marketHandlers(
  active: ActiveCore,
  registry: SubscriptionRegistry,
  /** The desk window the calling page draws (`Workstation.windowOf`), null for no page. */
  windowOf: (caller: string) => string | null = () => null,
  /** The last tick main holds of each of these instruments (`pageTicks` in app-services.ts). */
  lastTicks: (tokens: readonly number[]) => Tick[] = () => [],
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
      // The UI's owners have their own namespace: no renderer can replace what main watches for
      // alerts. Each window's are its own (`ui:<window>/<owner>`): two windows' watchlists both
      // named `watchlist` are two owners, and a window that closes drops exactly its own
      // (docs/workstation.md §What a pop-out costs).
      const window = windowOf(currentCaller().caller) ?? MAIN_WINDOW;
      registry.set(`ui:${window}/${owner}`, tokens, mode);
      const union = registry.subscriptions();
      active.subscribe(union.tokens, union.modes);
      // What main already streams gets no snapshot from the broker: the page gets main's last tick.
      return { subscribed: union.tokens.size, last: lastTicks(tokens) };
    },
    'quotes.get': async ({ tokens }) => [...(await active.current().broker.getQuotes(tokens))],
    'market.status': async () => active.current().broker.marketStatus(),
    'options.chain': async ({ underlying, expiry, strikes }) =>
      active
        .current()
        .broker.optionChain({ underlying, ...(expiry ? { expiry } : {}), ...(strikes ? { strikes } : {}) }),
  };
}
