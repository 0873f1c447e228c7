import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { Duplex } from 'node:stream';
import type { BrokerState, Ctx, Route } from './context';
import type { AuthGuard } from './auth-guard';
import { type FaultPlan, driftShape } from './faults';
import {
  ClientGone,
  type Reply,
  etagOf,
  matchesEtag,
  MAX_HEADER_BYTES,
  parserProblem,
  rawProblem,
  requestUrl,
  send,
} from './http-io';
import { assertControlSecret } from './control-secret';
import { assertLoopbackHost } from './host-check';
import { Problem } from './problem';
import { RateLimiter, type Take } from './rate-limit';
import { Router } from './router';
import { controlRoutes } from './routes/control';
import { gttRoutes } from './routes/gtt';
import { marketDataRoutes } from './routes/market-data';
import { orderRoutes } from './routes/orders';
import { portfolioRoutes } from './routes/portfolio';
import { quoteRoutes } from './routes/quotes';
import { sessionRoutes } from './routes/session';
import type { Session } from './sessions';

/**
 * The HTTP pipeline, in the order a request meets it:
 *
 *   route (404/405) → control? (its secret, no faults, no auth) → latency → injected 429/5xx/expiry
 *   → auth (401) → rate limits (429) → scope (403) → handler → journal fsync
 *   → injected post-commit 5xx / dropped or stalled reply / drifted shape → ETag (304) → reply.
 *
 * Every thrown Problem becomes problem+json; anything else is a bug and becomes a 500 that
 * says so (and is logged), never a hung socket.
 */

export interface ServerOptions {
  /** The control interface's per-launch secret (./control-secret.ts); null = no control interface. */
  readonly controlSecret: string | null;
  readonly rate: { perSecond: number; burst: number };
  /** Authentication with its per-address failure limit (shared with the stream's upgrade). */
  readonly auth: AuthGuard;
  /** The Kite Connect dialect under /kite (docs/kite.md), beside /v1 on the same state. */
  readonly kite?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;
  /** The Upstox dialect under /upstox and /upstox-hft (docs/upstox.md), on the same state. */
  readonly upstox?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;
  /** Host names accepted beside the loopback ones (docs/paper-broker.md §Loopback only). */
  readonly extraHostNames: ReadonlySet<string>;
}

/** True when `path` is `prefix` or under it. */
const under = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const reply = (res: ServerResponse, r: Reply, req: IncomingMessage): void => {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  if (r.body === undefined) return send(res, r.status, undefined, headers);
  const text = JSON.stringify(r.body);
  if (r.etag && r.status === 200) {
    const tag = etagOf(text);
    headers.ETag = tag;
    if (matchesEtag(req.headers['if-none-match'], tag)) return send(res, 304, undefined, headers);
  }
  send(res, r.status, text, headers);
};

const problemReply = (res: ServerResponse, p: Problem): void => {
  send(res, p.status, p.body(), { ...p.headers }, true);
};

const limitHeaders = (takes: ReadonlyArray<[RateLimiter, Take]>): Record<string, string> => ({
  'RateLimit-Policy': takes.map(([l]) => l.policy()).join(', '),
  RateLimit: takes.map(([l, t]) => RateLimiter.header(l.name, t)).join(', '),
});

/** What every request of one server shares. */
interface Pipeline {
  readonly state: BrokerState;
  readonly opts: ServerOptions;
  readonly router: Router;
  readonly general: RateLimiter;
  /** Placement's own, stricter bucket on top of the general one. */
  readonly placing: RateLimiter;
}

/** The /v1 route a request names, or the 404/405 it gets (a control route is a 404 without the control interface). */
function routeOf(
  p: Pipeline,
  req: IncomingMessage,
  url: URL,
): { route: Route; params: Readonly<Record<string, string>> } {
  if (!url.pathname.startsWith('/v1/') && url.pathname !== '/v1') {
    throw new Problem(404, 'not_found', `No such path ${url.pathname}; the API lives under /v1`);
  }
  const m = p.router.match(req.method ?? 'GET', url.pathname.slice(3) || '/');
  if (m.kind === 'none' || (m.kind === 'found' && m.route.access === 'control' && p.opts.controlSecret === null)) {
    throw new Problem(404, 'not_found', `No such endpoint ${req.method} ${url.pathname}`);
  }
  if (m.kind === 'method') {
    const allow = m.allow.join(', ');
    throw new Problem(
      405,
      'method_not_allowed',
      `${req.method} is not supported on ${url.pathname}; use ${allow}`,
      [],
      {},
      {
        Allow: allow,
      },
    );
  }
  return { route: m.route, params: m.params };
}

/** An injected 429 or 5xx that comes before the request is handled, if the plan has one. */
function faultBefore(plan: FaultPlan): Problem | null {
  if (plan.rateLimit) {
    const retry = { 'Retry-After': String(plan.retryAfterS) };
    return new Problem(429, 'rate_limited', 'Too many requests (injected fault); retry after the pause', [], {}, retry);
  }
  if (plan.errorBefore !== null) {
    return new Problem(
      plan.errorBefore,
      'server_error',
      'The broker failed before handling the request (injected fault)',
    );
  }
  return null;
}

/**
 * Who is asking and whether they may: the session (401 without one; an injected expiry), the
 * rate limits (429) and the token's scope (403). Returns the session (null on a public route)
 * and the rate-limit headers every later reply carries.
 */
function admit(
  p: Pipeline,
  req: IncomingMessage,
  route: Route,
  plan: FaultPlan,
  realNow: number,
): { session: Session | null; rl: Record<string, string> } {
  const address = req.socket.remoteAddress ?? '';
  let session: Session | null = null;
  if (route.access !== 'public') {
    session = p.opts.auth.authenticate(req.headers.authorization, address, realNow);
    if (plan.tokenExpiry) {
      p.state.sessions.expire(session.token, realNow);
      session = p.state.sessions.authenticate(req.headers.authorization, realNow);
    }
  }
  const key = session?.token ?? `addr:${address}`;
  const takes: Array<[RateLimiter, Take]> = [[p.general, p.general.take(key, realNow)]];
  if (route.ordersLimit) takes.push([p.placing, p.placing.take(key, realNow)]);
  const rl = limitHeaders(takes);
  const refused = takes.find(([, t]) => !t.ok);
  if (refused) {
    const wait = Math.max(...takes.map(([, t]) => t.retryAfterS));
    throw new Problem(
      429,
      'rate_limited',
      `Rate limit "${refused[0].name}" exceeded (${refused[0].cfg.perSecond}/s); retry in ${wait} s`,
      [],
      {},
      { ...rl, 'Retry-After': String(wait) },
    );
  }
  if (route.access === 'trade' && session?.scope !== 'trade') {
    throw new Problem(
      403,
      'forbidden',
      'This token has read scope; placing, modifying and cancelling orders needs a trade-scope login',
      [],
      {},
      rl,
    );
  }
  return { session, rl };
}

/** Runs the handler; what it journaled is durable before anything is answered, a refusal too. */
async function handled(p: Pipeline, route: Route, ctx: Ctx, rl: Record<string, string>): Promise<Reply> {
  try {
    const r = await route.handle(ctx);
    await p.state.journal.durable();
    return r;
  } catch (e) {
    // Commit whatever a failed handler journaled (nothing, normally) before answering.
    await p.state.journal.durable();
    if (e instanceof Problem && e.code === 'invalid_credentials')
      p.opts.auth.failed(ctx.req.socket.remoteAddress ?? '', ctx.realNow);
    if (e instanceof Problem) throw new Problem(e.status, e.code, e.detail, e.errors, e.extra, { ...rl, ...e.headers });
    throw e;
  }
}

/** The handled request's answer, through the injected faults that come after the commit. */
function answer(
  req: IncomingMessage,
  res: ServerResponse,
  plan: FaultPlan,
  r: Reply,
  rl: Record<string, string>,
): void {
  if (plan.errorAfter !== null) {
    return problemReply(
      res,
      new Problem(plan.errorAfter, 'server_error', 'The broker failed after handling the request (injected fault)'),
    );
  }
  if (plan.dropReply) {
    req.socket.destroy();
    return;
  }
  // The reply is "lost in the network": nothing is written and the socket stays open until
  // the client gives up (or the broker closes every connection on shutdown).
  if (plan.stallReply) return;
  const body =
    plan.shapeChange && r.status >= 200 && r.status < 300 && r.body !== undefined ? driftShape(r.body) : r.body;
  reply(res, { ...r, body, headers: { ...rl, ...(r.headers ?? {}) } }, req);
}

/** One request through the pipeline (see the module comment). */
async function handle(p: Pipeline, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { state, opts } = p;
  assertLoopbackHost(req, opts.extraHostNames);
  // Tokens and limits keep real time; the market (orders, sessions) keeps the market clock.
  const realNow = state.realClock();
  const now = state.clock();
  state.keeper.advance(now);
  const url = requestUrl(req.url);
  // A held request waits here, before anything is handled (the control interface is never held).
  if (!url.pathname.startsWith('/v1/_control')) await state.holds.gate(req.method ?? 'GET', url.pathname);
  if (opts.kite && under(url.pathname, '/kite')) return opts.kite(req, res, url);
  if (opts.upstox && (under(url.pathname, '/upstox') || under(url.pathname, '/upstox-hft')))
    return opts.upstox(req, res, url);
  const { route, params } = routeOf(p, req, url);
  const ctxBase = { req, state, params, query: url.searchParams, now, realNow };

  if (route.access === 'control' && opts.controlSecret !== null) {
    assertControlSecret(req, opts.controlSecret);
    const r = await route.handle({ ...ctxBase, session: null });
    await state.journal.durable();
    return reply(res, r, req);
  }

  const plan: FaultPlan = state.faults.plan(req.method ?? 'GET');
  if (plan.latencyMs > 0) await sleep(plan.latencyMs);
  const injected = faultBefore(plan);
  if (injected) throw injected;
  const { session, rl } = admit(p, req, route, plan, realNow);
  const r = await handled(p, route, { ...ctxBase, session }, rl);
  answer(req, res, plan, r, rl);
}

export function createBrokerServer(state: BrokerState, opts: ServerOptions): Server {
  const p: Pipeline = {
    state,
    opts,
    router: new Router([
      ...sessionRoutes,
      ...orderRoutes,
      ...gttRoutes,
      ...portfolioRoutes,
      ...marketDataRoutes,
      ...quoteRoutes,
      ...controlRoutes,
    ]),
    general: new RateLimiter('default', opts.rate),
    // Placement's bucket: 10/s by default.
    placing: new RateLimiter('orders', {
      perSecond: opts.rate.perSecond,
      burst: Math.max(1, Math.min(opts.rate.burst, opts.rate.perSecond)),
    }),
  };
  const server = createServer({ keepAliveTimeout: 30_000, maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    handle(p, req, res).catch((e: unknown) => {
      if (e instanceof Problem) return problemReply(res, e);
      if (e instanceof ClientGone) return void res.destroy();
      console.error('[paper] unexpected error', e);
      problemReply(res, new Problem(500, 'server_error', 'The paper broker hit an unexpected error; this is a bug'));
    });
  });
  // What Node's parser refuses (oversized headers, not HTTP, too slow) gets problem+json too.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    socket.end(rawProblem(parserProblem(err.code)));
  });
  return server;
}
