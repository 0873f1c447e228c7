import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Tick } from '@shared/domain/market';
import { startPaperBroker, type PaperBroker, type PaperBrokerOptions } from '../../paper';
import { StreamClient } from './stream-client';
import { authFor, login } from './test-helpers';
import { TickBatcher } from './tick-batcher';

/**
 * The stream client against the real paper broker on loopback: a renderer that gets a few
 * messages with the newest prices rather than one message per tick. Reconnects, the watchdog
 * and the subscription limit are the one client policy's, tested in stream-socket.test.ts.
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

const onGrid = (p: number, tick: number): number => Math.round(Math.round(p / tick) * tick * 100) / 100;

describe('StreamClient on the paper broker', () => {
  it('under ~1,000 ticks/s hands the renderer a few batches carrying the latest price of each instrument', async () => {
    const broker = await paper();
    cleanups.push(() => broker.close());
    const token = await login(broker);
    const list = (await instruments(broker.url, token)).slice(0, 5);
    const batches: Tick[][] = [];
    const batcher = new TickBatcher((t) => batches.push(t), { everyMs: 100 });
    cleanups.push(async () => batcher.close());
    const received: Tick[] = [];
    const c = new StreamClient(
      `${broker.url.replace('http', 'ws')}/stream`,
      authFor(() => broker, token),
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

    // 1,000 price changes across five instruments, ten every 10 ms (about a second): counted, not
    // timed, so a slow machine sends as many as a fast one.
    const last = new Map<number, number>();
    let step = 0;
    for (let turn = 0; turn < 100; turn += 1) {
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
