import type { Ctx } from '../context';
import type { DialectRoute } from '../dialect-server';
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

/** What an /upstox handler is called with: the broker's context and the dialect's own state. */
export interface UpstoxCtx extends Ctx {
  readonly upstox: UpstoxState;
}

/** A handler's answer: a JSON body as it is sent, or a redirect (the login dialog). */
export type UpstoxReply = { readonly body: unknown } | { readonly redirect: string };

/** `{status:"success", data}`: Upstox's success envelope. */
export const ok = (data: unknown): UpstoxReply => ({ body: { status: 'success', data } });

/**
 * An /upstox route (its kinds: ../dialect-server.ts). The order writes (place, modify, cancel)
 * are served on both hosts, counted against the order limits and checked against the registered
 * static IPs.
 */
export interface UpstoxRoute extends DialectRoute<UpstoxCtx, UpstoxReply> {
  /** Relative to /upstox (or /upstox-hft). */
  readonly path: string;
  readonly limit: UpstoxLimit;
}

/**
 * An API route (the caller's token needed) whose answer goes into Upstox's success envelope
 * (`ok`): most of /upstox. Routes that answer another body or a redirect are written out whole.
 */
export function upstoxApi(
  method: UpstoxRoute['method'],
  path: string,
  limit: UpstoxLimit,
  answer: (ctx: UpstoxCtx) => unknown,
): UpstoxRoute {
  return { method, path, kind: 'api', limit, handle: async (ctx) => ok(await answer(ctx)) };
}

/** A browser's page or a file anyone may fetch: outside the API pipeline, so no token, faults or limits. */
export function upstoxPage(path: string, handle: UpstoxRoute['handle']): UpstoxRoute {
  return { method: 'GET', path, kind: 'page', limit: 'standard', handle };
}
