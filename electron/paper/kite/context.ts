import type { Ctx } from '../context';
import type { DialectRoute } from '../dialect-server';
import type { KitePlan } from './app-settings';
import type { KiteLimit } from './limits';
import type { RequestTokens } from './session';
import type { KiteOrderExtras } from './views';

/**
 * What a /kite route handler gets and gives (docs/kite.md): the broker's one state (the same
 * engine, market and sessions as /v1), the dialect's own login state, and a reply that is
 * Kite's success envelope, a CSV, a redirect or a page.
 */

/** The /kite dialect's own state beside the broker's. */
export interface KiteState {
  readonly requestTokens: RequestTokens;
  /** What an order placed on /kite carried beyond the engine's record (`market_protection`). */
  readonly extras: Map<string, KiteOrderExtras>;
  /** Where the login page sends the browser: `--kite-redirect-url`, or the broker's own token page. */
  readonly redirectUrl: () => string;
  /** Addresses orders may come from (`--kite-allowed-ips`; empty: none registered). */
  readonly allowedIps: readonly string[];
  /** The app's plan (`--kite-plan`): `personal` has no market data. */
  readonly plan: KitePlan;
}

/** What a /kite handler is called with: the broker's context and the dialect's own state. */
export interface KiteCtx extends Ctx {
  readonly kite: KiteState;
}

/** A handler's answer: `data` goes into `{status:"success",data}`; the others are sent as they are. */
export type KiteReply =
  | { readonly data: unknown }
  | { readonly csv: string }
  | { readonly redirect: string }
  | { readonly html: string; readonly status?: number };

/**
 * A /kite route (its kinds: ../dialect-server.ts). `POST /session/token` is `public`: no token,
 * but faults and the default limit.
 */
export interface KiteRoute extends DialectRoute<KiteCtx, KiteReply> {
  /** Relative to /kite. */
  readonly path: string;
  readonly limit: KiteLimit;
}

/**
 * An API route (the caller's token needed) whose answer goes into Kite's success envelope,
 * `{status:"success",data}`: most of /kite. Routes that answer a CSV, a page or a redirect are
 * written out whole.
 */
export function kiteApi(
  method: KiteRoute['method'],
  path: string,
  limit: KiteLimit,
  answer: (ctx: KiteCtx) => unknown,
): KiteRoute {
  return { method, path, kind: 'api', limit, handle: async (ctx) => ({ data: await answer(ctx) }) };
}

/** A browser's page (the login page, the token page): outside the API pipeline, so no token, faults or limits. */
export function kitePage(path: string, handle: KiteRoute['handle']): KiteRoute {
  return { method: 'GET', path, kind: 'page', limit: 'default', handle };
}
