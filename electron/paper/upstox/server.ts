import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthGuard } from '../auth-guard';
import type { BrokerState } from '../context';
import { driftShape } from '../faults';
import type { InjectedRefusals } from '../dialect-faults';
import { createDialectHandler } from '../dialect-server';
import { checkStaticIp } from './static-ip';
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
 * The /upstox dialect of the paper broker's dialect pipeline (../dialect-server.ts;
 * docs/upstox.md §The wire): auth is a 401 UDAPI100050, then the static IP on order writes (403
 * UDAPI1154), then Upstox's limits (429 UDAPI10005, no Retry-After).
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
  const limits = new UpstoxLimits(opts.rates);
  return createDialectHandler<UpstoxCtx, UpstoxReply, UpstoxError, UpstoxRoute>(state, opts.auth, {
    name: '/upstox',
    routes: [...loginRoutes, ...orderRoutes, ...portfolioRoutes, ...marketRoutes, ...feedRoutes],
    pathOf(url) {
      const hft = url.pathname === '/upstox-hft' || url.pathname.startsWith('/upstox-hft/');
      const path = url.pathname.slice(hft ? '/upstox-hft'.length : '/upstox'.length) || '/';
      return hft && !WRITES.has(path) ? null : path;
    },
    injected: INJECTED,
    isError: (e) => e instanceof UpstoxError,
    notFound: () => new UpstoxError(404, UPSTOX_CODES.notFound, 'Resource not Found'),
    notAllowed: (req, url, allow) =>
      new UpstoxError(
        405,
        UPSTOX_CODES.notSupported,
        `${req.method} is not supported on ${url.pathname.slice(0, 100)}; use ${allow.join(', ')}`,
      ),
    bug: () => new UpstoxError(500, UPSTOX_CODES.serverError, 'Something went wrong... please contact us'),
    fromProblem,
    ctx: (base): UpstoxCtx => ({ ...base, upstox: opts.upstox }),
    authenticate: (req, realNow) => upstoxAuthenticate(state.sessions, req.headers.authorization, realNow),
    // A login that ended is not a guess.
    isGuess: (req) => isGuess(state.sessions, req.headers.authorization),
    expired: () => tokenError(),
    admit(_route, path, session, address, realNow) {
      const writes = WRITES.has(path);
      if (writes) checkStaticIp(opts.upstox.allowedIps, address);
      limits.take(writes ? 'orders' : 'standard', session?.userId ?? `addr:${address}`, realNow);
    },
    // A wrong secret or a spent code.
    failedLogin: (e) => e instanceof UpstoxError && e.status === 401,
    drift: (r: UpstoxReply) => ('body' in r ? { body: driftShape(r.body) } : r),
    write,
  });
}
