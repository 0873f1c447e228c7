import type { IncomingMessage } from 'node:http';
import type { BrokerState } from '../context';
import type { Session } from '../sessions';
import type { UpstoxLimit } from './limits';
import type { OneTimeCodes } from './session';
import type { UpstoxOrderExtras } from './views';

/**
 * What an /upstox route handler gets and gives (docs/upstox.md): the broker's one state (the
 * same engine, market and sessions as /v1 and /kite), the dialect's own login and feed state,
 * and a reply that is a JSON body or a redirect.
 */

/** What a feed's `…/authorize` code opens: which feed, for which session. */
export interface FeedGrant {
  readonly feed: 'market' | 'portfolio';
  readonly token: string;
  /** The portfolio stream's `update_types` (order, position, holding). */
  readonly updateTypes: readonly string[];
}

/** The /upstox dialect's own state beside the broker's. */
export interface UpstoxState {
  /** Authorization codes, each bound to the redirect_uri it was issued for. */
  readonly codes: OneTimeCodes<string>;
  /** The feeds' socket codes. */
  readonly feedCodes: OneTimeCodes<FeedGrant>;
  /** What an order placed on /upstox carried beyond the engine's record (`MTF`). */
  readonly extras: Map<string, UpstoxOrderExtras>;
  /** Addresses order writes may come from (`--upstox-allowed-ips`; empty: none registered). */
  readonly allowedIps: readonly string[];
  /** The socket URL of `path` on this broker (`ws://127.0.0.1:P…`). */
  readonly socketUrl: (path: string) => string;
}

/** What an /upstox handler is called with. */
export interface UpstoxCtx {
  readonly req: IncomingMessage;
  readonly state: BrokerState;
  readonly upstox: UpstoxState;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The caller's session (null on the public routes). */
  readonly session: Session | null;
  /** The market clock's time of this request. */
  readonly now: number;
  /** Real time of this request (token lifetimes, limits). */
  readonly realNow: number;
}

/** A handler's answer: a JSON body as it is sent, or a redirect (the login dialog). */
export type UpstoxReply = { readonly body: unknown } | { readonly redirect: string };

/** `{status:"success", data}`: Upstox's success envelope. */
export const ok = (data: unknown): UpstoxReply => ({ body: { status: 'success', data } });

/**
 * An /upstox route. `page` routes (the authorization dialog) are a browser's: no faults, no
 * token, no limits. `public` routes (the token exchange) take no token. `write` routes (place,
 * modify, cancel) are the order writes: served on both hosts, counted against the order limits
 * and checked against the registered static IPs.
 */
export interface UpstoxRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Relative to /upstox (or /upstox-hft). */
  readonly path: string;
  readonly kind: 'page' | 'public' | 'api';
  readonly limit: UpstoxLimit;
  readonly handle: (ctx: UpstoxCtx) => UpstoxReply | Promise<UpstoxReply>;
}
