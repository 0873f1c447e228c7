import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthGuard } from '../auth-guard';
import type { BrokerState } from '../context';
import { driftShape } from '../faults';
import { type InjectedRefusals, faultsAfter, faultsBefore } from '../dialect-faults';
import { ClientGone } from '../http-io';
import { checkStaticIp } from './static-ip';
import { Problem } from '../problem';
import { Router } from '../router';
import type { Session } from '../sessions';
import type { UpstoxCtx, UpstoxReply, UpstoxRoute, UpstoxState } from './context';
import { UPSTOX_CODES, UpstoxError, fromProblem, tokenError } from './errors';
import { UpstoxLimits, type UpstoxRates } from './limits';
import { feedRoutes } from './routes/feeds';
import { loginRoutes } from './routes/login';
import { marketRoutes } from './routes/market';
import { orderRoutes } from './routes/orders';
import { portfolioRoutes } from './routes/portfolio';
import { isGuess, upstoxAuthenticate } from './session';

/**
 * The /upstox request pipeline (docs/upstox.md §The wire), in the order a request meets it — the
 * same order as /v1's and /kite's:
 *
 *   host and route (404/405) → page? (no faults, no token, no limits) → latency
 *   → injected 429/5xx/expiry → auth (401 UDAPI100050) → static IP on order writes (403 UDAPI1154)
 *   → Upstox's limits (429 UDAPI10005, no Retry-After) → handler → journal commit
 *   → injected post-commit 5xx / dropped or stalled reply / drifted shape → reply.
 *
 * Two hosts, as Upstox has: `/upstox` serves everything, `/upstox-hft` only the order writes
 * (the SDK sends place, modify and cancel to its `orderBasePath`).
 */

export interface UpstoxServerOptions {
  readonly auth: AuthGuard;
  readonly upstox: UpstoxState;
  readonly rates?: UpstoxRates;
}

/** Injected faults in Upstox's words: its 429 carries no Retry-After (docs/upstox.md §Limits), injected ones neither. */
const INJECTED: InjectedRefusals = {
  rateLimited: () => new UpstoxError(429, UPSTOX_CODES.tooManyRequests, 'Too Many Request Sent (injected fault)'),
  failed: (status, when) =>
    new UpstoxError(
      status,
      UPSTOX_CODES.serverError,
      `The broker failed ${when} handling the request (injected fault)`,
    ),
};

/** The order writes: what the HFT host serves, the order limits count and the static IP guards. */
const WRITES = new Set(['/v3/order/place', '/v3/order/modify', '/v3/order/cancel']);

function write(res: ServerResponse, status: number, r: UpstoxReply | UpstoxError): void {
  if (res.headersSent || res.destroyed) return;
  if (!(r instanceof UpstoxError) && 'redirect' in r) {
    res.writeHead(302, { Location: r.redirect, 'Content-Length': 0, 'Cache-Control': 'no-store' });
    res.end();
    return;
  }
  const text = JSON.stringify(r instanceof UpstoxError ? r.body() : r.body);
  res.writeHead(r instanceof UpstoxError ? r.status : status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache',
  });
  res.end(text);
}

/** A request handler for everything under /upstox and /upstox-hft, sharing the broker's state. */
export function createUpstoxHandler(
  state: BrokerState,
  opts: UpstoxServerOptions,
): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> {
  const router = new Router<UpstoxRoute>(
    [...loginRoutes, ...orderRoutes, ...portfolioRoutes, ...marketRoutes, ...feedRoutes],
    { trailingSlash: false },
  );
  const limits = new UpstoxLimits(opts.rates);

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const realNow = state.realClock();
    const now = state.clock();
    state.keeper.advance(now);
    const hft = url.pathname === '/upstox-hft' || url.pathname.startsWith('/upstox-hft/');
    const path = url.pathname.slice(hft ? '/upstox-hft'.length : '/upstox'.length) || '/';
    const m = router.match(req.method ?? 'GET', path);
    if (m.kind === 'none' || (hft && !WRITES.has(path)))
      throw new UpstoxError(404, UPSTOX_CODES.notFound, 'Resource not Found');
    if (m.kind === 'method')
      throw new UpstoxError(
        405,
        UPSTOX_CODES.notSupported,
        `${req.method} is not supported on ${url.pathname.slice(0, 100)}; use ${m.allow.join(', ')}`,
      );
    const route = m.route;
    const address = req.socket.remoteAddress ?? '';
    const ctx = (session: Session | null): UpstoxCtx => ({
      req,
      state,
      upstox: opts.upstox,
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
        session = upstoxAuthenticate(state.sessions, req.headers.authorization, realNow);
      } catch (e) {
        // Guesses (no such token) spend the address's failure budget, as on /v1 (docs/api.md
        // §Limits); a login that ended is not a guess.
        if (isGuess(state.sessions, req.headers.authorization)) opts.auth.failed(address, realNow);
        throw e;
      }
      if (plan.tokenExpiry) {
        state.sessions.expire(session.token, realNow);
        throw tokenError();
      }
    }
    const writes = WRITES.has(path);
    if (writes) checkStaticIp(opts.upstox.allowedIps, address);
    limits.take(writes ? 'orders' : 'standard', session?.userId ?? `addr:${address}`, realNow);

    let r: UpstoxReply;
    try {
      r = await route.handle(ctx(session));
    } catch (e) {
      // A failed token exchange (wrong secret, spent code) is a failed login, as on /v1.
      if (route.kind === 'public' && e instanceof UpstoxError && e.status === 401) opts.auth.failed(address, realNow);
      throw e;
    } finally {
      await state.journal.durable();
    }
    if (!faultsAfter(plan, req, INJECTED)) return;
    if (plan.shapeChange && 'body' in r) r = { body: driftShape(r.body) };
    write(res, 200, r);
  }

  return (req, res, url) =>
    handle(req, res, url).catch((e: unknown) => {
      if (e instanceof UpstoxError) return write(res, e.status, e);
      if (e instanceof Problem) return write(res, 0, fromProblem(e));
      if (e instanceof ClientGone) return void res.destroy();
      console.error('[paper] unexpected error on /upstox', e);
      write(res, 500, new UpstoxError(500, UPSTOX_CODES.serverError, 'Something went wrong... please contact us'));
    });
}
