import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Tick } from '@shared/domain/market';
import type { ConnectionState } from '@shared/domain/session';
import { startPaperBroker, type PaperBroker, type PaperBrokerOptions } from '../../paper';
import type { AuthSource } from '../auth-source';
import { StreamClient } from './stream-client';
import { TickBatcher } from './tick-batcher';

/**
 * The stream client against the real paper broker on loopback: what a trader would notice is
 * prices that keep arriving after the broker restarts or the socket goes silent, and a renderer
 * that gets a few messages with the newest prices rather than one message per tick.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function paper(options: PaperBrokerOptions = {}): Promise<PaperBroker> {
  const broker = await startPaperBroker({
    control: true,
    tickIntervalMs: 0,
    rate: { perSecond: 10_000, burst: 10_000 },
    ...options,
  });
  return broker;
}

async function login(url: string): Promise<string> {
  const r = await fetch(`${url}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
  });
  return ((await r.json()) as { access_token: string }).access_token;
}

/** An AuthSource that logs in again when the broker refuses the token (as the session manager does). */
function authFor(url: () => string, first: string): AuthSource {
  let token: string | null = first;
  return {
    token: () => token,
    renew: async () => (token = await login(url())),
    expired: () => {
      token = null;
    },
  };
}

async function instruments(
  url: string,
  token: string,
): Promise<Array<{ instrument_token: number; last_price: number; tick_size: number }>> {
  const r = await fetch(`${url}/instruments?exchange=NSE`, { headers: { authorization: `Bearer ${token}` } });
  return (
    (await r.json()) as {
      instruments: Array<{ instrument_token: number; last_price: number; tick_size: number; instrument_type: string }>;
    }
  ).instruments.filter((i) => i.instrument_type === 'EQ');
}

/** A client plus what it delivered. */
function client(broker: () => PaperBroker, token: string, opts: ConstructorParameters<typeof StreamClient>[3] = {}) {
  const ticks: Tick[] = [];
  const states: Array<{ state: ConnectionState['stream']; detail: string | null }> = [];
  const c = new StreamClient(
    `${broker().url.replace('http', 'ws')}/stream`,
    authFor(() => broker().url, token),
    {
      onOrder: () => undefined,
      onTick: (t) => ticks.push(t),
      onState: (state, detail) => states.push({ state, detail }),
    },
    { reconnect: { baseMs: 20, capMs: 200 }, ...opts },
  );
  cleanups.push(() => c.stop());
  return { c, ticks, states, opens: () => states.filter((s) => s.state === 'open').length };
}

const onGrid = (p: number, tick: number): number => Math.round(Math.round(p / tick) * tick * 100) / 100;

describe('StreamClient on the paper broker', () => {
  it('reconnects after the broker restarts on the same port and resubscribes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'td-stream-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    let broker = await paper({ dataDir: dir });
    const port = broker.port;
    const token = await login(broker.url);
    const [a, b] = await instruments(broker.url, token);
    const s = client(() => broker, token);
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

  it('after a restart, many owners wanting 3,505 tokens get ticks for the first 3,000, are told the limit was reached, and recover when owners leave', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'td-stream-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    let broker = await paper({ dataDir: dir });
    const port = broker.port;
    const token = await login(broker.url);
    const real = await instruments(broker.url, token);
    const [a, b] = real;
    // The union of eight owners: real instruments first, then tokens no broker lists.
    const wanted = [...real.map((i) => i.instrument_token)];
    for (let t = 9_000_000; wanted.length < 3_505; t++) wanted.push(t);
    const s = client(() => broker, token);
    s.c.setSubscriptions(new Set(wanted));
    s.c.start();
    await vi.waitFor(() => expect(s.ticks.length).toBe(real.length), { timeout: 10_000 });
    const limitNote = (x: { detail: string | null }) =>
      /Subscription limit reached: 3,000 of 3,505/.test(x.detail ?? '');
    expect(s.states.some(limitNote)).toBe(true);
    const refused = () => s.states.filter((x) => /refused/.test(x.detail ?? ''));

    await broker.close();
    await vi.waitFor(() => expect(s.states.at(-1)?.state).toBe('connecting'), { timeout: 5_000 });
    broker = await paper({ dataDir: dir, port });
    cleanups.push(() => broker.close());
    await vi.waitFor(() => expect(s.opens()).toBe(2), { timeout: 10_000 });
    expect(limitNote(s.states.at(-1)!)).toBe(true);
    // The client kept within the limit: the broker never had to refuse a subscription.
    expect(refused()).toEqual([]);

    // Ticks flow again after the resubscribe.
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

  it('replaces a socket that is open but silent, says why, and keeps delivering ticks', async () => {
    // Heartbeats a minute apart, no market ticks and no pongs: the socket stays open and says
    // nothing, as a half-open connection does.
    const broker = await paper({ heartbeatMs: 60_000, stream: { answerPings: false } });
    cleanups.push(() => broker.close());
    const token = await login(broker.url);
    const [a] = await instruments(broker.url, token);
    const s = client(() => broker, token, { silenceMs: 300 });
    s.c.setSubscriptions(new Set([a!.instrument_token]));
    s.c.start();
    await vi.waitFor(() => expect(s.opens()).toBeGreaterThanOrEqual(2), { timeout: 5_000 });
    expect(s.states.some((x) => x.state === 'connecting' && /No data from the broker/.test(x.detail ?? ''))).toBe(true);
    const p = onGrid(a!.last_price + 3, a!.tick_size);
    broker.setPrice(a!.instrument_token, p);
    await vi.waitFor(() => expect(s.ticks.some((t) => t.lastPrice === p)).toBe(true), { timeout: 5_000 });
  });

  it('does not replace a quiet socket whose broker answers pings', async () => {
    // No heartbeats for a minute, no ticks: only pongs show the broker is there.
    const broker = await paper({ heartbeatMs: 60_000 });
    cleanups.push(() => broker.close());
    const token = await login(broker.url);
    const s = client(() => broker, token, { silenceMs: 300 });
    s.c.start();
    await vi.waitFor(() => expect(s.opens()).toBe(1), { timeout: 5_000 });
    // A bounded wait for a negative check: four watchdog periods without a replacement.
    await new Promise((r) => setTimeout(r, 1_200));
    expect(s.opens()).toBe(1);
  });

  it('does not replace a socket that hears heartbeats', async () => {
    const broker = await paper({ heartbeatMs: 50 });
    cleanups.push(() => broker.close());
    const token = await login(broker.url);
    const s = client(() => broker, token, { silenceMs: 400 });
    s.c.start();
    await vi.waitFor(() => expect(s.opens()).toBe(1), { timeout: 5_000 });
    await new Promise((r) => setTimeout(r, 1_200));
    expect(s.opens()).toBe(1);
    expect(s.states.filter((x) => x.state === 'connecting')).toHaveLength(1); // the first connect only
  });

  it('under ~1,000 ticks/s hands the renderer a few batches carrying the latest price of each instrument', async () => {
    const broker = await paper();
    cleanups.push(() => broker.close());
    const token = await login(broker.url);
    const list = (await instruments(broker.url, token)).slice(0, 5);
    const batches: Tick[][] = [];
    const batcher = new TickBatcher((t) => batches.push(t), { everyMs: 100 });
    cleanups.push(async () => batcher.close());
    const received: Tick[] = [];
    const c = new StreamClient(
      `${broker.url.replace('http', 'ws')}/stream`,
      authFor(() => broker.url, token),
      {
        onOrder: () => undefined,
        onTick: (t) => {
          received.push(t);
          batcher.push(t);
        },
        onState: () => undefined,
      },
    );
    cleanups.push(() => c.stop());
    c.setSubscriptions(new Set(list.map((i) => i.instrument_token)));
    c.start();
    await vi.waitFor(() => expect(received.length).toBe(list.length), { timeout: 5_000 });

    // One second of 1,000 price changes a second across five instruments.
    const last = new Map<number, number>();
    const started = Date.now();
    let step = 0;
    while (Date.now() - started < 1_000) {
      for (let k = 0; k < 10; k += 1) {
        const i = list[step % list.length]!;
        const price = onGrid(i.last_price + ((step % 40) - 20) * i.tick_size + i.tick_size * 0.5, i.tick_size);
        broker.setPrice(i.instrument_token, price);
        last.set(i.instrument_token, price);
        step += 1;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    await vi.waitFor(
      () => {
        const seen = new Map<number, number>();
        for (const b of batches) for (const t of b) seen.set(t.instrumentToken, t.lastPrice);
        expect(seen).toEqual(last);
      },
      { timeout: 5_000 },
    );
    expect(received.length).toBeGreaterThan(500);
    // Far fewer messages than ticks, and never two ticks of one instrument in one message.
    expect(batches.length).toBeLessThan(received.length / 20);
    for (const b of batches) expect(new Set(b.map((t) => t.instrumentToken)).size).toBe(b.length);
  });
});
