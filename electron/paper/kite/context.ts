import type { IncomingMessage } from 'node:http';
import type { BrokerState } from '../context';
import type { Session } from '../sessions';
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

/** What a /kite handler is called with: the request, the shared state, the caller and the times. */
export interface KiteCtx {
  readonly req: IncomingMessage;
  readonly state: BrokerState;
  readonly kite: KiteState;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The caller's session (null on the public routes). */
  readonly session: Session | null;
  /** The market clock's time of this request. */
  readonly now: number;
  /** Real time of this request (token lifetimes, limits). */
  readonly realNow: number;
}

/** A handler's answer: `data` goes into `{status:"success",data}`; the others are sent as they are. */
export type KiteReply =
  | { readonly data: unknown }
  | { readonly csv: string }
  | { readonly redirect: string }
  | { readonly html: string; readonly status?: number };

/**
 * A /kite route. `page` routes (the login page, the token page) are a browser's, outside the
 * API pipeline: no faults, no token, no limits. `auth: false` routes (`POST /session/token`) take
 * no token but meet faults and the default limit.
 */
export interface KiteRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Relative to /kite. */
  readonly path: string;
  readonly kind: 'page' | 'public' | 'api';
  readonly limit: KiteLimit;
  readonly handle: (ctx: KiteCtx) => KiteReply | Promise<KiteReply>;
}
