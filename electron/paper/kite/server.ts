import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BrokerState } from '../context';
import { driftShape } from '../faults';
import type { InjectedRefusals } from '../dialect-faults';
import { createDialectHandler } from '../dialect-server';
import type { AuthGuard } from '../auth-guard';
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
 * The /kite dialect of the paper broker's dialect pipeline (../dialect-server.ts; docs/kite.md
 * §The wire): auth is a 403 TokenException, then the app's plan and allowed IPs (403
 * PermissionException), then Kite's limits (429). Only Kite's documented paths: a trailing slash
 * is no route. Every refusal is Kite's error envelope.
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
  const limits = new KiteLimits(opts.rates);
  return createDialectHandler<KiteCtx, KiteReply, KiteError, KiteRoute>(state, opts.auth, {
    name: '/kite',
    routes: [...sessionRoutes, ...orderRoutes, ...gttRoutes, ...portfolioRoutes, ...marketRoutes],
    pathOf: (url) => url.pathname.slice('/kite'.length) || '/',
    injected: INJECTED,
    isError: (e) => e instanceof KiteError,
    notFound: (req, url) =>
      new KiteError(404, 'GeneralException', `Route not found: ${req.method} ${url.pathname.slice(0, 100)}`),
    notAllowed: (req, url, allow) =>
      new KiteError(
        405,
        'GeneralException',
        `${req.method} is not supported on ${url.pathname.slice(0, 100)}; use ${allow.join(', ')}`,
      ),
    bug: () => new KiteError(500, 'GeneralException', 'The paper broker hit an unexpected error; this is a bug'),
    fromProblem,
    ctx: (base): KiteCtx => ({ ...base, kite: opts.kite }),
    authenticate: (req, realNow) => kiteAuthenticate(state.sessions, req.headers.authorization, realNow),
    // An expired token is not a guess.
    isGuess: (_req, e) => e instanceof KiteError && !/expired/.test(e.message),
    expired: () => tokenError('The access token has expired; log in again'),
    admit(route, _path, session, address, realNow) {
      // The app's console settings (docs/kite.md §The rules of 2026): market data only on a plan
      // that has it; order writes only from a registered IP.
      if (opts.kite.plan === 'personal' && (route.limit === 'quote' || route.limit === 'historical'))
        throw noMarketData();
      if (route.limit === 'orders') checkOrderIp(opts.kite.allowedIps, address);
      limits.take(route.limit, session?.token ?? `addr:${address}`, session?.userId ?? `addr:${address}`, realNow);
    },
    // A wrong secret or a spent request token.
    failedLogin: (e) => e instanceof KiteError && e.errorType === 'TokenException',
    drift: (r: KiteReply) => ('data' in r ? { data: driftShape(r.data) } : r),
    write,
  });
}
