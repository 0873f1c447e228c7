import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { STREAM_SUBSCRIPTION_LIMIT, WireStreamServerMessage } from '../wire/rest-schemas';
import { type Api, startTestBroker } from './test-helpers';
import type { PaperBrokerOptions } from './index';

/**
 * What a stream client can do to the broker's memory and what it gets back (docs/api.md
 * §Stream: slow readers, an ended login, the subscription limit). The bounds themselves — slow
 * and dead peers closed, what they kept released — are the one server-side policy's, tested in
 * electron/wire/fan-out.test.ts; here, that the stream's dialect delivers through it.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function broker(opts: PaperBrokerOptions = {}): Promise<Api> {
  const api = await startTestBroker({ heartbeatMs: 20, ...opts });
  cleanups.push(() => api.close());
  return api;
}

interface Peer {
  readonly ws: WebSocket;
  readonly messages: WireStreamServerMessage[];
  closed: { code: number; reason: string } | null;
}

async function open(api: Api, options: WebSocket.ClientOptions = {}): Promise<Peer> {
  const ws = new WebSocket(`${api.broker.url.replace('http', 'ws')}/stream`, {
    headers: { authorization: `Bearer ${api.token}` },
    ...options,
  });
  const peer: Peer = { ws, messages: [], closed: null };
  ws.on('message', (d) => peer.messages.push(WireStreamServerMessage.parse(JSON.parse(String(d)))));
  ws.on('close', (code, reason) => {
    peer.closed = { code, reason: reason.toString() };
  });
  ws.on('error', () => undefined);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  cleanups.push(() => ws.terminate());
  return peer;
}

/** Every instrument token the broker lists. */
async function allTokens(api: Api): Promise<number[]> {
  return (await api.call('GET', '/instruments')).body.instruments.map(
    (i: { instrument_token: number }) => i.instrument_token,
  );
}

/** Stops reading the socket: the kernel buffers fill, then the server's send buffer grows. */
function stopReading(peer: Peer): () => void {
  const socket = (peer.ws as unknown as { _socket: Socket })._socket;
  socket.pause();
  return () => socket.resume();
}

const tick = (api: Api, count: number) => api.call('POST', '/_control/tick', { count });

describe('a stream client that does not read', () => {
  it('never holds more than the bound of unsent bytes, and gets the latest tick of each instrument when it reads again', async () => {
    const bound = 64 * 1024;
    const api = await broker({
      stream: { coalesceAboveBytes: bound, closeAboveBytes: 64 * bound, slowCloseMs: 60_000 },
    });
    const tokens = await allTokens(api);
    const slow = await open(api);
    slow.ws.send(JSON.stringify({ action: 'subscribe', tokens }));
    await expect.poll(() => slow.messages.filter((m) => m.type === 'tick').length).toBe(tokens.length);
    const resume = stopReading(slow);

    let offered = 0;
    let mostBuffered = 0;
    // 200 market ticks offer ~75,000 ticks: over 7 times what the first check needs and enough to
    // fill the kernel's socket buffers well past the bound; a quarter of the work it once did, so
    // a loaded machine finishes inside the test's time.
    for (let round = 0; round < 20; round++) {
      offered += (await tick(api, 10)).body.moved;
      mostBuffered = Math.max(mostBuffered, ...api.broker.streamStats().map((c) => c.bufferedBytes));
    }
    // Far more was offered than the bound allows to wait: ~130 bytes a tick.
    expect(offered * 130).toBeGreaterThan(20 * bound);
    // One batch of the latest tick per instrument may go out over the bound, never more.
    expect(mostBuffered).toBeLessThan(bound + tokens.length * 200);

    const before = slow.messages.length;
    resume();
    const latest = new Map<number, number>(
      (await api.call('GET', '/instruments')).body.instruments.map(
        (i: { instrument_token: number; last_price: number }) => [i.instrument_token, i.last_price],
      ),
    );
    await expect
      .poll(
        () => {
          const seen = new Map<number, number>();
          for (const m of slow.messages) if (m.type === 'tick') seen.set(m.instrument_token, m.last_price);
          return [...latest].every(([t, p]) => seen.get(t) === p);
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    expect(slow.messages.length - before).toBeLessThan(offered);
    expect(slow.closed).toBeNull();
  });
});

describe('a socket whose login ends', () => {
  it('is closed with 4001 at the next heartbeat and leaves the stream at once, even if it never reads', async () => {
    const api = await broker();
    const peer = await open(api);
    const resume = stopReading(peer);
    expect(api.broker.streamStats()).toHaveLength(1);
    expect((await api.call('DELETE', '/session')).status).toBe(204);
    // Its close handshake cannot finish while it does not read: the broker must not wait for it.
    await expect.poll(() => api.broker.streamStats()).toEqual([]);
    resume();
    await expect.poll(() => peer.closed?.code).toBe(4001);
  });
});

describe('the subscription limit', () => {
  it(`refuses a subscription over ${STREAM_SUBSCRIPTION_LIMIT} tokens with an error message and subscribes none of it`, async () => {
    const api = await broker();
    const real = await allTokens(api);
    const peer = await open(api);
    const tooMany = [
      ...real,
      ...Array.from({ length: STREAM_SUBSCRIPTION_LIMIT + 1 - real.length }, (_, i) => 9_000_000 + i),
    ];
    peer.ws.send(JSON.stringify({ action: 'subscribe', tokens: tooMany }));
    await expect
      .poll(() => peer.messages.find((m) => m.type === 'error'))
      .toMatchObject({
        type: 'error',
        code: 'subscription_limit',
        message: expect.stringContaining(String(STREAM_SUBSCRIPTION_LIMIT)),
      });
    expect(peer.messages.filter((m) => m.type === 'tick')).toEqual([]);
    // Within the limit it works on the same socket.
    peer.ws.send(JSON.stringify({ action: 'subscribe', tokens: real.slice(0, 3) }));
    await expect.poll(() => peer.messages.filter((m) => m.type === 'tick').length).toBe(3);
  });

  it('counts every token a socket asked for, listed or not, across messages', async () => {
    const api = await broker();
    const peer = await open(api);
    const unlisted = (from: number, n: number) => Array.from({ length: n }, (_, i) => 9_000_000 + from + i);
    peer.ws.send(JSON.stringify({ action: 'subscribe', tokens: unlisted(0, 2_000) }));
    peer.ws.send(JSON.stringify({ action: 'subscribe', tokens: unlisted(2_000, 1_000) }));
    peer.ws.send(JSON.stringify({ action: 'subscribe', tokens: unlisted(3_000, 1) }));
    await expect
      .poll(() => peer.messages.filter((m) => m.type === 'error'))
      .toEqual([
        expect.objectContaining({ code: 'subscription_limit', message: expect.stringContaining('would make 3001') }),
      ]);
    // Unsubscribing frees room.
    peer.ws.send(JSON.stringify({ action: 'unsubscribe', tokens: unlisted(0, 1) }));
    peer.ws.send(JSON.stringify({ action: 'subscribe', tokens: unlisted(3_000, 1) }));
    peer.ws.send('not json'); // answered in order: proves the subscribe before it was taken
    await expect.poll(() => peer.messages.filter((m) => m.type === 'error').length).toBe(2);
    expect(peer.messages.filter((m) => m.type === 'error')[1]).toMatchObject({ code: 'invalid_message' });
  });

  it('answers a malformed message with an error message and keeps the socket', async () => {
    const api = await broker();
    const peer = await open(api);
    peer.ws.send('not json');
    peer.ws.send(JSON.stringify({ action: 'subscribe', tokens: ['x'] }));
    await expect.poll(() => peer.messages.filter((m) => m.type === 'error').length).toBe(2);
    expect(peer.messages.find((m) => m.type === 'error')).toMatchObject({ code: 'invalid_message' });
    expect(peer.closed).toBeNull();
  });
});
