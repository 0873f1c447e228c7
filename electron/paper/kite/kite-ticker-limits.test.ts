import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { PaperBrokerOptions } from '../index';
import { divisorOf } from './packets';
import { type KiteTest, startKiteTest } from './test-kite';

/**
 * What a ticker client that stops reading can do to the broker's memory (docs/kite.md §Ticker,
 * bounded like docs/api.md §Stream: GET /v1/stream): its unsent bytes stay bounded and it gets
 * the latest packet of each instrument, in Kite's frames, when it reads again. Closing peers that
 * stay behind is the one server-side policy's, tested in electron/wire/fan-out.test.ts.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Peer {
  readonly ws: WebSocket;
  /** The last price seen per token. */
  readonly prices: Map<number, number>;
  packets: number;
  closed: number | null;
}

async function start(
  opts: PaperBrokerOptions,
): Promise<{ t: KiteTest; tokens: number[]; open: (mode?: 'quote' | 'full') => Promise<Peer> }> {
  const t = await startKiteTest({ kiteHeartbeatMs: 20, ...opts });
  cleanups.push(() => t.close());
  const kc = await t.login();
  const access = (kc as unknown as { access_token: string }).access_token;
  const tokens = (await t.api.call('GET', '/instruments')).body.instruments.map(
    (i: { instrument_token: number }) => i.instrument_token,
  );
  const open = async (mode: 'quote' | 'full' = 'quote'): Promise<Peer> => {
    const ws = new WebSocket(`ws://127.0.0.1:${t.port}/kite/ws?api_key=paper&access_token=${access}`);
    const peer: Peer = { ws, prices: new Map(), packets: 0, closed: null };
    ws.on('message', (d: Buffer, isBinary) => {
      if (!isBinary || d.length < 4) return;
      let at = 2;
      for (let n = d.readUInt16BE(0); n > 0; n--) {
        const len = d.readUInt16BE(at);
        const token = d.readUInt32BE(at + 2);
        peer.prices.set(token, d.readInt32BE(at + 6) / divisorOf(token));
        peer.packets += 1;
        at += 2 + len;
      }
    });
    ws.on('close', (code) => (peer.closed = code));
    ws.on('error', () => undefined);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    cleanups.push(() => ws.terminate());
    ws.send(JSON.stringify({ a: 'subscribe', v: tokens }));
    if (mode === 'full') ws.send(JSON.stringify({ a: 'mode', v: ['full', tokens] }));
    return peer;
  };
  return { t, tokens, open };
}

function stopReading(peer: Peer): () => void {
  const socket = (peer.ws as unknown as { _socket: Socket })._socket;
  socket.pause();
  return () => socket.resume();
}

const tick = async (t: KiteTest, count: number): Promise<number> =>
  (await t.api.call('POST', '/_control/tick', { count })).body.moved as number;

describe('a Kite ticker client that does not read', () => {
  it('never holds more than the bound of unsent bytes, and gets the latest price of each instrument when it reads again', async () => {
    const bound = 64 * 1024;
    const { t, tokens, open } = await start({
      stream: { coalesceAboveBytes: bound, closeAboveBytes: 256 * bound, slowCloseMs: 60_000 },
    });
    const slow = await open('full');
    await expect.poll(() => slow.prices.size).toBe(tokens.length);
    const resume = stopReading(slow);
    let offered = 0;
    let most = 0;
    // Full packets, so the kernel's socket buffers overflow as well as the bound.
    for (let round = 0; round < 10; round++) {
      offered += await tick(t, 20);
      most = Math.max(most, ...t.api.broker.kiteTickerStats().map((s) => s.bufferedBytes));
    }
    // Far more was offered than the bound allows to wait: 186 bytes a full packet.
    expect(offered * 186).toBeGreaterThan(20 * bound);
    // At most one message of the latest packet per instrument goes out over the bound.
    expect(most).toBeLessThan(bound + tokens.length * 190 * 2);

    const before = slow.packets;
    resume();
    const latest = new Map<number, number>(
      (await t.api.call('GET', '/instruments')).body.instruments.map(
        (i: { instrument_token: number; last_price: number }) => [i.instrument_token, i.last_price],
      ),
    );
    await expect
      .poll(() => [...latest].every(([k, p]) => Math.abs((slow.prices.get(k) ?? -1) - p) < 1e-6), { timeout: 10_000 })
      .toBe(true);
    expect(slow.packets - before).toBeLessThan(offered);
    expect(slow.closed).toBeNull();
  }, 90_000);
});
