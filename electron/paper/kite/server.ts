import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthGuard } from '../auth-guard';
import type { BrokerState } from '../context';
import { driftShape } from '../faults';
import { type InjectedRefusals, faultsAfter, faultsBefore } from '../dialect-faults';
import { ClientGone } from '../http-io';
import { Problem } from '../problem';
import { Router } from '../router';
import type { Session } from '../sessions';
import type { KiteCtx, KiteReply, KiteRoute, KiteState } from './context';
import { checkOrderIp, noMarketData } from './app-settings';
import { KiteError, fromProblem, tokenError } from './errors';
import { KiteLimits, type KiteRates } from './limits';
import { gttRoutes } from './routes/gtt';
import { orderRoutes } from './routes/orders';
import { marketRoutes } from './routes/market';
import { portfolioRoutes } from './routes/portfolio';
import { sessionRoutes } from './routes/session';
import { kiteAuthenticate } from './session';

/**
 * The /kite request pipeline (docs/kite.md §The wire), in the order a request meets it — the
 * same order as /v1's:
 *
 *   route (404/405) → page? (no faults, no token, no limits) → latency → injected 429/5xx/expiry
 *   → auth (403 TokenException) → the app's plan and allowed IPs (403 PermissionException)
 *   → Kite's limits (429) → handler → journal commit
 *   → injected post-commit 5xx / dropped or stalled reply / drifted shape → reply.
 *
 * Every refusal is Kite's error envelope; anything unexpected is a 500 GeneralException that
 * says it is a bug, never a hung socket.
 */

export interface KiteServerOptions {
  readonly auth: AuthGuard;
  readonly kite: KiteState;
  readonly rates?: KiteRates;
}

/** Injected faults in Kite's words (a 429 with Retry-After, as Kite's). */
const INJECTED: InjectedRefusals = {
  rateLimited: (retryAfterS) =>
    new KiteError(429, 'NetworkException', 'Too many requests (injected fault); retry after the pause', {
      'Retry-After': String(retryAfterS),
    }),
  failed: (status, when) =>
    new KiteError(status, 'GeneralException', `The broker failed ${when} handling the request (injected fault)`),
};

/** Writes a Kite reply (or error) as Kite does: JSON envelopes, `text/csv` exactly, redirects, pages. */
function write(
  res: ServerResponse,
  status: number,
  r: KiteReply | KiteError,
  extra: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string | number> = { ...extra, 'Cache-Control': 'no-cache' };
  let text: string;
  if (r instanceof KiteError) {
    Object.assign(headers, r.headers, { 'Content-Type': 'application/json' });
    text = JSON.stringify(r.body());
    status = r.status;
  } else if ('redirect' in r) {
    res.writeHead(302, { ...headers, Location: r.redirect, 'Content-Length': 0 });
    res.end();
    return;
  } else if ('csv' in r) {
    headers['Content-Type'] = 'text/csv';
    text = r.csv;
  } else if ('html' in r) {
    headers['Content-Type'] = 'text/html; charset=utf-8';
    text = r.html;
    status = r.status ?? status;
  } else {
    headers['Content-Type'] = 'application/json';
    text = JSON.stringify({ status: 'success', data: r.data });
  }
  headers['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(status, headers);
  res.end(text);
}

/** A request handler for everything under /kite, sharing the broker's state with /v1. */
export function createKiteHandler(
  state: BrokerState,
  opts: KiteServerOptions,
): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> {
  // Kite's documented paths only: a trailing slash is no route (docs/kite.md §The wire).
  const router = new Router<KiteRoute>(
    [...sessionRoutes, ...orderRoutes, ...gttRoutes, ...portfolioRoutes, ...marketRoutes],
    { trailingSlash: false },
  );
  const limits = new KiteLimits(opts.rates);

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const realNow = state.realClock();
    const now = state.clock();
    state.keeper.advance(now);
    const path = url.pathname.slice('/kite'.length) || '/';
    const m = router.match(req.method ?? 'GET', path);
    if (m.kind === 'none')
      throw new KiteError(404, 'GeneralException', `Route not found: ${req.method} ${url.pathname.slice(0, 100)}`);
    if (m.kind === 'method')
      throw new KiteError(
        405,
        'GeneralException',
        `${req.method} is not supported on ${url.pathname.slice(0, 100)}; use ${m.allow.join(', ')}`,
      );
    const route = m.route;
    const address = req.socket.remoteAddress ?? '';
    const ctx = (session: Session | null): KiteCtx => ({
      req,
      state,
      kite: opts.kite,
      params: m.params,
      query: url.searchParams,
      session,
      now,
      realNow,
    });
    if (route.kind === 'page') return write(res, 200, await route.handle(ctx(null)));

    const plan = state.faults.plan(req.method ?? 'GET');
    await faultsBefore(plan, INJECTED);

    let session: Session | null = null;
    if (route.kind === 'api') {
      try {
        session = kiteAuthenticate(state.sessions, req.headers.authorization, realNow);
      } catch (e) {
        // Guesses (no such token) spend the address's failure budget, as on /v1 (docs/api.md §Limits).
        if (e instanceof KiteError && !/expired/.test(e.message)) opts.auth.failed(address, realNow);
        throw e;
      }
      if (plan.tokenExpiry) {
        state.sessions.expire(session.token, realNow);
        throw tokenError('The access token has expired; log in again');
      }
    }
    // The app's console settings (docs/kite.md §The rules of 2026): market data only on a plan
    // that has it; order writes only from a registered IP.
    if (opts.kite.plan === 'personal' && (route.limit === 'quote' || route.limit === 'historical'))
      throw noMarketData();
    if (route.limit === 'orders') checkOrderIp(opts.kite.allowedIps, address);
    limits.take(route.limit, session?.token ?? `addr:${address}`, session?.userId ?? `addr:${address}`, realNow);

    let r: KiteReply;
    try {
      r = await route.handle(ctx(session));
    } catch (e) {
      // A failed token exchange (wrong secret, spent request token) is a failed login, as on /v1.
      if (route.kind === 'public' && e instanceof KiteError && e.errorType === 'TokenException')
        opts.auth.failed(address, realNow);
      throw e;
    } finally {
      await state.journal.durable();
    }
    if (!faultsAfter(plan, req, INJECTED)) return;
    if (plan.shapeChange && 'data' in r) r = { data: driftShape(r.data) };
    write(res, 200, r);
  }

  return (req, res, url) =>
    handle(req, res, url).catch((e: unknown) => {
      if (e instanceof KiteError) return write(res, e.status, e);
      if (e instanceof Problem) return write(res, 0, fromProblem(e));
      if (e instanceof ClientGone) return void res.destroy();
      console.error('[paper] unexpected error on /kite', e);
      write(
        res,
        500,
        new KiteError(500, 'GeneralException', 'The paper broker hit an unexpected error; this is a bug'),
      );
    });
}
