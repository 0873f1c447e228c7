import { z } from 'zod';
import { toIstIso } from '@shared/lib/ist-time';
import { fromUnits, isOnTick, toUnits } from '@shared/trading/money';
import type { Route } from '../context';
import type { FaultConfig } from '../faults';
import { readJson } from '../http-io';
import { badField, notFound } from '../problem';
import { ClockError } from '../market-clock';
import { parseOr400 } from '../validation';
import type { HoldView } from '../reply-holds';
import { marketStatus } from './quotes';

/**
 * The control interface (only with `control: true` / `--control`): for tests and demos, never
 * faulted, never rate limited, no token. It lets a test move a price and watch matching happen.
 */

const PriceBody = z.strictObject({ instrument_token: z.number().int().positive(), last_price: z.number().positive() });
const UnderlyingBody = z.strictObject({
  underlying: z.string().regex(/^[A-Z0-9&-]{1,32}$/),
  price: z.number().positive().max(1e9),
});
const ClockBody = z
  .strictObject({
    at: z.iso.datetime({ offset: true }).optional(),
    speed: z.number().positive().optional(),
    wall: z.literal(true).optional(),
  })
  .refine((b) => b.at !== undefined || b.speed !== undefined || b.wall !== undefined, {
    message: 'send at, speed or wall',
    path: ['body'],
  });
const TickBody = z.strictObject({ count: z.number().int().min(1).max(1000).optional() });
const StreamBody = z.strictObject({ accept: z.boolean() });
const HoldBody = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  path_prefix: z
    .string()
    .regex(/^\/(v1|kite|upstox|upstox-hft)(\/|$)/, 'must start with /v1, /kite, /upstox or /upstox-hft')
    .max(200),
});
const ReleaseBody = z.strictObject({ id: z.string().max(20).optional() });
const holdView = (h: HoldView) => ({
  id: h.id,
  method: h.method ?? null,
  path_prefix: h.pathPrefix,
  waiting: h.waiting,
  held: h.held,
});

export const controlRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/_control/price',
    access: 'control',
    async handle({ req, state, now }) {
      const raw = await readJson(req);
      if (raw !== null && typeof raw === 'object' && 'underlying' in raw) {
        const u = parseOr400(UnderlyingBody, raw);
        const moves = state.market.setUnderlying(u.underlying, u.price, now);
        if (moves === null) throw notFound(`Underlying ${u.underlying}`);
        return { status: 200, body: { underlying: u.underlying, price: u.price, moved: moves.length } };
      }
      const b = parseOr400(PriceBody, raw);
      const i = state.market.instrument(b.instrument_token);
      if (!i) throw notFound(`Instrument ${b.instrument_token}`);
      if (!isOnTick(b.last_price, i.tickSize))
        throw badField('last_price', `must be a multiple of the tick size (${i.tickSize})`);
      state.market.set(i.token, toUnits(b.last_price), now);
      const [lo, hi] = state.market.band(i.token);
      return {
        status: 200,
        body: { instrument_token: i.token, last_price: b.last_price, band: [fromUnits(lo), fromUnits(hi)] },
      };
    },
  },
  {
    method: 'POST',
    path: '/_control/tick',
    access: 'control',
    async handle({ req, state, now }) {
      const b = parseOr400(TickBody, await readJson(req));
      let moved = 0;
      for (let n = 0; n < (b.count ?? 1); n++) moved += state.market.step(now).length;
      return { status: 200, body: { moved } };
    },
  },
  {
    method: 'POST',
    path: '/_control/clock',
    access: 'control',
    async handle({ req, state }) {
      const b = parseOr400(ClockBody, await readJson(req));
      try {
        state.marketClock.set({
          ...(b.at !== undefined ? { at: Date.parse(b.at) } : {}),
          ...(b.speed !== undefined ? { speed: b.speed } : {}),
          ...(b.wall ? { wall: true } : {}),
        });
      } catch (e) {
        if (e instanceof ClockError) throw badField(e.field, e.message);
        throw e;
      }
      // Every close, new day and open the jump passed happens now, in order.
      const now = state.clock();
      state.keeper.advance(now);
      return { status: 200, body: marketStatus(state, now) };
    },
  },
  {
    method: 'POST',
    path: '/_control/faults',
    access: 'control',
    async handle({ req, state }) {
      const b = await readJson(req);
      if (b === null || typeof b !== 'object' || Array.isArray(b))
        throw badField('body', 'must be an object of fault settings ({} clears)');
      try {
        state.faults.set(b as FaultConfig);
      } catch (e) {
        throw badField('body', e instanceof Error ? e.message : 'invalid faults');
      }
      return { status: 200, body: { faults: state.faults.current() } };
    },
  },
  {
    method: 'POST',
    path: '/_control/stream',
    access: 'control',
    async handle({ req, state }) {
      const b = parseOr400(StreamBody, await readJson(req));
      const cut = state.setStreamAccepting(b.accept);
      return { status: 200, body: { accept: b.accept, cut } };
    },
  },
  {
    method: 'GET',
    path: '/_control/sessions',
    access: 'control',
    handle({ state, realNow: now }) {
      const sessions = state.sessions.all().map((s) => ({
        access_token: s.token,
        user_id: s.userId,
        scope: s.scope,
        expires_at: toIstIso(s.expiresAt),
        active: !s.revoked && s.expiresAt > now,
      }));
      return { status: 200, body: { sessions } };
    },
  },
  {
    method: 'POST',
    path: '/_control/hold',
    access: 'control',
    async handle({ req, state }) {
      const b = parseOr400(HoldBody, await readJson(req));
      const id = state.holds.add({ ...(b.method ? { method: b.method } : {}), pathPrefix: b.path_prefix });
      return { status: 200, body: { id } };
    },
  },
  {
    method: 'POST',
    path: '/_control/release',
    access: 'control',
    async handle({ req, state }) {
      const b = parseOr400(ReleaseBody, await readJson(req));
      if (b.id !== undefined && !state.holds.list().some((h) => h.id === b.id)) throw notFound(`Hold ${b.id}`);
      return { status: 200, body: { released: state.holds.release(b.id) } };
    },
  },
  {
    method: 'GET',
    path: '/_control/holds',
    access: 'control',
    handle({ state }) {
      return { status: 200, body: { holds: state.holds.list().map(holdView) } };
    },
  },
];
