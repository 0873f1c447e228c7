import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer } from 'ws';
import type { Tick } from '@shared/domain/market';
import type { ConnectionState } from '@shared/domain/session';
import { startPaperBroker, type PaperBroker, type PaperBrokerOptions } from '../../paper';
import type { AuthSource } from '../auth-source';
import { authFor, login } from './test-helpers';
import type { BrokerStream, StreamListener } from '../broker';
import { KiteTicker } from '../kite/kite-ticker';
import { StreamClient } from './stream-client';
import { SUBSCRIBE_CHUNK, type StreamSocketOptions } from './stream-socket';

/**
 * The one client-side socket policy (`stream-socket.ts`), tested once, through both of its
 * dialects against the real paper broker, which serves `/v1/stream` and Kite's `/kite/ws` from
 * one market: what a trader would notice is prices that keep arriving after the broker restarts
 * or the socket goes silent, a quiet but live socket left alone, and the instruments past the
 * broker's limit named rather than silently frozen.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** One dialect of the policy: how to open its client on a server's root (`http://127.0.0.1:P`). */
interface Dialect {
  readonly name: string;
  open(root: string, auth: AuthSource, listener: StreamListener, options: StreamSocketOptions): BrokerStream;
  /** The subscribed tokens in one message the client sent. */
  subscribed(message: unknown): { action: string; tokens: number[] } | null;
}

const DIALECTS: Dialect[] = [
  {
    name: '/v1 stream client',
    open: (root, auth, listener, options) =>
      new StreamClient(`${root.replace('http', 'ws')}/v1/stream`, auth, listener, options),
    subscribed: (m) => {
      const msg = m as { action?: string; tokens?: number[] };
      return msg.action === 'subscribe' || msg.action === 'unsubscribe'
        ? { action: msg.action, tokens: msg.tokens ?? [] }
        : null;
    },
  },
  {
    name: 'Kite ticker',
    open: (root, auth, listener, options) =>
      new KiteTicker(`${root.replace('http', 'ws')}/kite/ws`, 'paper', auth, listener, () => null, options),
    subscribed: (m) => {
      const msg = m as { a?: string; v?: number[] };
      return msg.a === 'subscribe' || msg.a === 'unsubscribe' ? { action: msg.a, tokens: msg.v ?? [] } : null;
    },
  },
];

async function paper(options: PaperBrokerOptions = {}): Promise<PaperBroker> {
  return startPaperBroker({ control: true, tickIntervalMs: 0, rate: { perSecond: 10_000, burst: 10_000 }, ...options });
}

const rootOf = (b: PaperBroker): string => b.url.replace(/\/v1$/, '');

async function equities(b: PaperBroker, token: string) {
  const r = await fetch(`${b.url}/instruments?exchange=NSE`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await r.json()) as {
    instruments: Array<{ instrument_token: number; last_price: number; tick_size: number; instrument_type: string }>;
  };
  return body.instruments.filter((i) => i.instrument_type === 'EQ');
}

const onGrid = (p: number, tick: number): number => Math.round(Math.round(p / tick) * tick * 100) / 100;

/** A client of `dialect` plus what it delivered. */
function client(dialect: Dialect, root: () => string, auth: AuthSource, options: StreamSocketOptions = {}) {
  const ticks: Tick[] = [];
  const states: Array<{ state: ConnectionState['stream']; detail: string | null }> = [];
  const c = dialect.open(
    root(),
    auth,
    {
      onOrder: () => undefined,
      onTick: (t) => ticks.push(t),
      onState: (state, detail) => states.push({ state, detail }),
    },
    { reconnect: { baseMs: 20, capMs: 200 }, ...options },
  );
  cleanups.push(() => c.stop());
  return { c, ticks, states, opens: () => states.filter((s) => s.state === 'open').length };
}

describe.each(DIALECTS)('the stream policy: $name', (dialect) => {
  it('reconnects after the broker restarts on the same port and resubscribes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'td-stream-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    let broker = await paper({ dataDir: dir });
    const port = broker.port;
    const token = await login(broker);
    const [a, b] = await equities(broker, token);
    const s = client(
      dialect,
      () => rootOf(broker),
      authFor(() => broker, token),
    );
    s.c.setSubscriptions(new Set([a!.instrument_token, b!.instrument_token]));
    s.c.start();
    // The subscription answers with the current price of each instrument.
    await vi.waitFor(() => expect(new Set(s.ticks.map((t) => t.instrumentToken)).size).toBe(2), { timeout: 5_000 });

    await broker.close();
    await vi.waitFor(() => expect(s.states.at(-1)?.state).toBe('connecting'), { timeout: 5_000 });
    broker = await paper({ dataDir: dir, port });
    cleanups.push(() => broker.close());
    await vi.waitFor(() => expect(s.opens()).toBe(2), { timeout: 10_000 });

    // Ticks flow again for both instruments without anyone calling setSubscriptions.
    const pa = onGrid(a!.last_price * 1.01, a!.tick_size);
    const pb = onGrid(b!.last_price * 0.99, b!.tick_size);
    broker.setPrice(a!.instrument_token, pa);
    broker.setPrice(b!.instrument_token, pb);
    await vi.waitFor(
      () => {
        expect(s.ticks.some((t) => t.instrumentToken === a!.instrument_token && t.lastPrice === pa)).toBe(true);
        expect(s.ticks.some((t) => t.instrumentToken === b!.instrument_token && t.lastPrice === pb)).toBe(true);
      },
      { timeout: 5_000 },
    );
  });

  it('after a restart, owners wanting 3,505 tokens get ticks for the first 3,000, are told the limit was reached, and recover when owners leave', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'td-stream-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    let broker = await paper({ dataDir: dir });
    const port = broker.port;
    const token = await login(broker);
    const real = await equities(broker, token);
    const [a, b] = real;
    // The union of many owners: real instruments first, then tokens no broker lists.
    const wanted = real.map((i) => i.instrument_token);
    for (let t = 9_000_000; wanted.length < 3_505; t++) wanted.push(t);
    const s = client(
      dialect,
      () => rootOf(broker),
      authFor(() => broker, token),
    );
    s.c.setSubscriptions(new Set(wanted));
    s.c.start();
    await vi.waitFor(() => expect(new Set(s.ticks.map((t) => t.instrumentToken)).size).toBe(real.length), {
      timeout: 10_000,
    });
    const limitNote = (x: { detail: string | null }) =>
      /Subscription limit reached: 3,000 of 3,505/.test(x.detail ?? '');
    expect(s.states.some(limitNote)).toBe(true);

    await broker.close();
    await vi.waitFor(() => expect(s.states.at(-1)?.state).toBe('connecting'), { timeout: 5_000 });
    broker = await paper({ dataDir: dir, port });
    cleanups.push(() => broker.close());
    await vi.waitFor(() => expect(s.opens()).toBe(2), { timeout: 10_000 });
    expect(limitNote(s.states.at(-1)!)).toBe(true);
    // The client kept within the limit: the broker never had to refuse a subscription.
    expect(s.states.filter((x) => /refused/.test(x.detail ?? ''))).toEqual([]);

    const pa = onGrid(a!.last_price * 1.01, a!.tick_size);
    broker.setPrice(a!.instrument_token, pa);
    await vi.waitFor(
      () => expect(s.ticks.some((t) => t.instrumentToken === a!.instrument_token && t.lastPrice === pa)).toBe(true),
      { timeout: 5_000 },
    );

    // The extra owners leave: the note goes and ticks keep flowing.
    s.c.setSubscriptions(new Set([a!.instrument_token, b!.instrument_token]));
    await vi.waitFor(() => expect(s.states.at(-1)).toEqual({ state: 'open', detail: null }), { timeout: 5_000 });
    const pb = onGrid(b!.last_price * 0.99, b!.tick_size);
    broker.setPrice(b!.instrument_token, pb);
    await vi.waitFor(
      () => expect(s.ticks.some((t) => t.instrumentToken === b!.instrument_token && t.lastPrice === pb)).toBe(true),
      { timeout: 5_000 },
    );
  });

  it('sends a large subscription in chunks, unsubscribing before subscribing', async () => {
    // A bare server that records what the client sends.
    const wss = new WebSocketServer({ port: 0 });
    await new Promise((resolve) => wss.once('listening', resolve));
    cleanups.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
    const sent: Array<{ action: string; tokens: number[] }> = [];
    wss.on('connection', (ws) =>
      ws.on('message', (d) => {
        const m = dialect.subscribed(JSON.parse(String(d)));
        if (m) sent.push(m);
      }),
    );
    const root = `http://127.0.0.1:${(wss.address() as AddressInfo).port}`;
    const s = client(
      dialect,
      () => root,
      authFor(() => undefined as never, 'token'),
    );
    const first = Array.from({ length: 3_505 }, (_, i) => 1_000 + i);
    s.c.setSubscriptions(new Set(first));
    s.c.start();
    await vi.waitFor(() => expect(sent.flatMap((m) => m.tokens)).toHaveLength(3_000));
    expect(sent.every((m) => m.action === 'subscribe' && m.tokens.length <= SUBSCRIBE_CHUNK)).toBe(true);
    expect(new Set(sent.flatMap((m) => m.tokens))).toEqual(new Set(first.slice(0, 3_000)));

    // A swap of 1,000 instruments: out first, so the broker never holds more than the limit.
    sent.length = 0;
    const next = [...first.slice(1_000, 3_000), ...Array.from({ length: 1_000 }, (_, i) => 50_000 + i)];
    s.c.setSubscriptions(new Set(next));
    await vi.waitFor(() => expect(sent.flatMap((m) => m.tokens)).toHaveLength(2_000));
    const firstSubscribe = sent.findIndex((m) => m.action === 'subscribe');
    expect(sent.slice(0, firstSubscribe).flatMap((m) => m.tokens)).toEqual(first.slice(0, 1_000));
    expect(sent.slice(firstSubscribe).every((m) => m.action === 'subscribe')).toBe(true);
    expect(sent.every((m) => m.tokens.length <= SUBSCRIBE_CHUNK)).toBe(true);
  });

  it('replaces a socket that is open but silent, says why, and keeps delivering ticks', async () => {
    // Heartbeats a minute apart, no market ticks and no pongs: the socket stays open and says
    // nothing, as a half-open connection does.
    const broker = await paper({ heartbeatMs: 60_000, kiteHeartbeatMs: 60_000, stream: { answerPings: false } });
    cleanups.push(() => broker.close());
    const token = await login(broker);
    const [a] = await equities(broker, token);
    const s = client(
      dialect,
      () => rootOf(broker),
      authFor(() => broker, token),
      { silenceMs: 300 },
    );
    s.c.setSubscriptions(new Set([a!.instrument_token]));
    s.c.start();
    await vi.waitFor(() => expect(s.opens()).toBeGreaterThanOrEqual(2), { timeout: 5_000 });
    expect(s.states.some((x) => x.state === 'connecting' && /No data from the broker/.test(x.detail ?? ''))).toBe(true);
    const p = onGrid(a!.last_price + 3, a!.tick_size);
    broker.setPrice(a!.instrument_token, p);
    await vi.waitFor(() => expect(s.ticks.some((t) => t.lastPrice === p)).toBe(true), { timeout: 5_000 });
  });

  it.each([
    // No heartbeats for a minute, no ticks: only pongs show the broker is there.
    ['whose broker answers pings', { heartbeatMs: 60_000, kiteHeartbeatMs: 60_000 }],
    ['that hears heartbeats', { heartbeatMs: 50, kiteHeartbeatMs: 50, stream: { answerPings: false } }],
  ] as const)('does not replace a quiet socket %s', async (_why, options) => {
    const broker = await paper(options);
    cleanups.push(() => broker.close());
    const token = await login(broker);
    const s = client(
      dialect,
      () => rootOf(broker),
      authFor(() => broker, token),
      // Long enough that a loaded machine answers the mid-silence ping in time (a pong later than
      // half the window is, to the watchdog, a silent broker): the check is of the policy, not of
      // the machine's speed.
      { silenceMs: 1_500 },
    );
    s.c.start();
    await vi.waitFor(() => expect(s.opens()).toBe(1), { timeout: 5_000 });
    // A bounded wait for a negative check: three watchdog periods without a replacement.
    await new Promise((r) => setTimeout(r, 4_500));
    expect(s.opens()).toBe(1);
    expect(s.states.filter((x) => x.state === 'connecting')).toHaveLength(1); // the first connect only
  });
});
