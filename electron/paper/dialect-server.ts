import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthGuard } from './auth-guard';
import type { BrokerState, Ctx } from './context';
import { type InjectedRefusals, faultsAfter, faultsBefore } from './dialect-faults';
import { ClientGone } from './http-io';
import { Problem } from './problem';
import { Router } from './router';
import type { Session } from './sessions';

/**
 * One broker dialect's request pipeline (/kite, /upstox: docs/paper-broker.md §Dialects), in the
 * order a request meets it — the same order as /v1's:
 *
 *   route (404/405) → page? (no faults, no token, no limits) → latency → injected 429/5xx/expiry
 *   → auth → the dialect's own admission (its app settings, its limits) → handler → journal commit
 *   → injected post-commit 5xx / dropped or stalled reply / drifted shape → reply.
 *
 * A dialect says only what is its own: its paths, its error envelope and words, how it
 * authenticates and admits, how it writes a reply. Every refusal is the dialect's error;
 * anything unexpected is its 500 that says it is a bug, never a hung socket.
 */

/**
 * A dialect's route. `page` routes (login pages) are a browser's, outside the API pipeline: no
 * faults, no token, no limits. `public` routes (token exchanges) take no token but meet faults
 * and limits; `api` routes need the caller's token.
 */
export interface DialectRoute<C, R> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly kind: 'page' | 'public' | 'api';
  readonly handle: (ctx: C) => R | Promise<R>;
}

/** What a dialect brings to the pipeline: `C` its handlers' context, `R` their replies, `E` its error. */
export interface Dialect<C extends Ctx, R, E extends Error, Rt extends DialectRoute<C, R>> {
  /** The dialect's root, for the log of an unexpected error (`/kite`). */
  readonly name: string;
  readonly routes: readonly Rt[];
  /** The request's path below the dialect's root, or null when this root serves no such path. */
  readonly pathOf: (url: URL) => string | null;
  /** Its injected 429 and 5xx. */
  readonly injected: InjectedRefusals;
  readonly isError: (e: unknown) => e is E;
  readonly notFound: (req: IncomingMessage, url: URL) => E;
  readonly notAllowed: (req: IncomingMessage, url: URL, allow: readonly string[]) => E;
  /** Its 500 for an unexpected error. */
  readonly bug: () => E;
  readonly fromProblem: (p: Problem) => E;
  /** Its handlers' context: the broker's one plus the dialect's own state. */
  readonly ctx: (base: Ctx) => C;
  /** The caller's session from the request's credentials, or the dialect's refusal. */
  readonly authenticate: (req: IncomingMessage, realNow: number) => Session;
  /** Whether a refused authentication was a guess (no such token), which spends the address's failure budget. */
  readonly isGuess: (req: IncomingMessage, e: unknown) => boolean;
  /** Its refusal of a token that the injected fault just expired. */
  readonly expired: () => E;
  /** Its own admission after auth: app settings and limits; throws its refusal. */
  readonly admit: (route: Rt, path: string, session: Session | null, address: string, realNow: number) => void;
  /** Whether a public route's refusal is a failed login (a wrong secret, a spent code). */
  readonly failedLogin: (e: unknown) => boolean;
  /** The reply with its data's shape drifted (the `shape_change` fault). */
  readonly drift: (r: R) => R;
  /** Writes a reply or an error as the dialect does (an error's own status wins). */
  readonly write: (res: ServerResponse, status: number, r: R | E) => void;
}

/** A request handler for everything under a dialect's root, sharing the broker's state with /v1. */
export function createDialectHandler<C extends Ctx, R, E extends Error, Rt extends DialectRoute<C, R>>(
  state: BrokerState,
  auth: AuthGuard,
  d: Dialect<C, R, E, Rt>,
): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> {
  // The dialects' documented paths only: a trailing slash is no route.
  const router = new Router<Rt>(d.routes, { trailingSlash: false });

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const realNow = state.realClock();
    const now = state.clock();
    state.keeper.advance(now);
    const path = d.pathOf(url);
    if (path === null) throw d.notFound(req, url);
    const m = router.match(req.method ?? 'GET', path);
    if (m.kind === 'none') throw d.notFound(req, url);
    if (m.kind === 'method') throw d.notAllowed(req, url, m.allow);
    const route = m.route;
    const address = req.socket.remoteAddress ?? '';
    const ctx = (session: Session | null): C =>
      d.ctx({ req, state, params: m.params, query: url.searchParams, session, now, realNow });
    if (route.kind === 'page') return d.write(res, 200, await route.handle(ctx(null)));

    const plan = state.faults.plan(req.method ?? 'GET');
    await faultsBefore(plan, d.injected);

    let session: Session | null = null;
    if (route.kind === 'api') {
      try {
        session = d.authenticate(req, realNow);
      } catch (e) {
        // Guesses spend the address's failure budget, as on /v1 (docs/api.md §Limits).
        if (d.isGuess(req, e)) auth.failed(address, realNow);
        throw e;
      }
      if (plan.tokenExpiry) {
        state.sessions.expire(session.token, realNow);
        throw d.expired();
      }
    }
    d.admit(route, path, session, address, realNow);

    let r: R;
    try {
      r = await route.handle(ctx(session));
    } catch (e) {
      // A failed token exchange is a failed login, as on /v1.
      if (route.kind === 'public' && d.failedLogin(e)) auth.failed(address, realNow);
      throw e;
    } finally {
      await state.journal.durable();
    }
    if (!faultsAfter(plan, req, d.injected)) return;
    d.write(res, 200, plan.shapeChange ? d.drift(r) : r);
  }

  return (req, res, url) =>
    handle(req, res, url).catch((e: unknown) => {
      if (d.isError(e)) return d.write(res, 0, e);
      if (e instanceof Problem) return d.write(res, 0, d.fromProblem(e));
      if (e instanceof ClientGone) return void res.destroy();
      console.error(`[paper] unexpected error on ${d.name}`, e);
      d.write(res, 500, d.bug());
    });
}
