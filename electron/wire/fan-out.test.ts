import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { FanOut, type FanOutOptions, type Peer } from './fan-out';

/**
 * The server-side policy every main-process WebSocket uses (the paper broker's `/v1` stream
 * and Kite ticker, the browser host's bridge), tested once, on a bare `ws` server: what a peer
 * that reads slowly, stops answering or loses its session can cost the server, and what a peer
 * that keeps up receives.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface State {
  revoked: boolean;
}

/** A value keyed by instrument: what the peer gets is `{key, value}`, kept values packed as one list. */
type Value = { key: number; value: number };

async function server(options: Partial<FanOutOptions<State, Value>> = {}) {
  const wss = new WebSocketServer({ port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  const fan = new FanOut<State, Value>({
    beatMs: 20,
    tooSlow: { code: 4008, advice: 'read faster' },
    pack: (kept) => [JSON.stringify({ kept })],
    revoked: (s) => (s.revoked ? { code: 4001, reason: 'session over' } : null),
    ...options,
  });
  const peers: Array<Peer<State, Value>> = [];
  wss.on('connection', (ws) => peers.push(fan.attach(ws, { revoked: false })));
  cleanups.push(() => {
    fan.close();
    return new Promise<void>((resolve) => wss.close(() => resolve()));
  });
  const port = (wss.address() as AddressInfo).port;
  return { fan, peers, port };
}

interface Client {
  readonly ws: WebSocket;
  readonly messages: Array<{ kept?: Value[]; key?: number; value?: number; must?: number }>;
  closed: { code: number; reason: string } | null;
  /** Stops reading: the kernel buffers fill, then the server's send buffer grows. */
  pause(): () => void;
}

async function connect(port: number, options: WebSocket.ClientOptions = {}): Promise<Client> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, options);
  const client: Client = {
    ws,
    messages: [],
    closed: null,
    pause: () => {
      const socket = (ws as unknown as { _socket: Socket })._socket;
      socket.pause();
      return () => socket.resume();
    },
  };
  ws.on('message', (d) => client.messages.push(JSON.parse(String(d))));
  ws.on('close', (code, reason) => (client.closed = { code, reason: reason.toString() }));
  ws.on('error', () => undefined);
  await new Promise((resolve) => ws.once('open', resolve));
  cleanups.push(() => ws.terminate());
  return client;
}

/** Offers one value per key for `keys` keys, each message ~1 KB. */
function offerRound(peer: Peer<State, Value>, keys: number, value: number): number {
  let bytes = 0;
  for (let key = 1; key <= keys; key++) {
    const text = JSON.stringify({ key, value, pad: 'x'.repeat(1000) });
    bytes += text.length;
    peer.offer([[key, { key, value }]], text);
  }
  return bytes;
}

/** The latest value per key the client has seen, from single messages and packed ones. */
function latest(c: Client): Map<number, number> {
  const seen = new Map<number, number>();
  for (const m of c.messages) {
    if (m.key !== undefined && m.value !== undefined) seen.set(m.key, m.value);
    for (const k of m.kept ?? []) seen.set(k.key, k.value);
  }
  return seen;
}

describe('a peer that does not read', () => {
  it('never costs more than the bound, gets every message that must arrive, and the latest value of each key when it reads again', async () => {
    const bound = 64 * 1024;
    const { fan, peers, port } = await server({ limits: { coalesceAboveBytes: bound, slowCloseMs: 60_000 } });
    const slow = await connect(port);
    await expect.poll(() => peers.length).toBe(1);
    const peer = peers[0]!;
    const resume = slow.pause();
    let offered = 0;
    let most = 0;
    for (let round = 1; round <= 200; round++) {
      offered += offerRound(peer, 50, round);
      if (round % 20 === 0) peer.send(JSON.stringify({ must: round }));
      most = Math.max(most, ...fan.buffered());
      await new Promise((r) => setImmediate(r));
    }
    expect(offered).toBeGreaterThan(100 * bound);
    // One packed batch of the latest value per key may go out over the bound, never more.
    expect(most).toBeLessThan(bound + 50 * 1200 + 10 * 100);
    resume();
    await expect.poll(() => [...latest(slow).values()].every((v) => v === 200) && latest(slow).size === 50).toBe(true);
    expect(slow.messages.filter((m) => m.must !== undefined).map((m) => m.must)).toEqual([
      20, 40, 60, 80, 100, 120, 140, 160, 180, 200,
    ]);
    expect(slow.closed).toBeNull();
  });

  it('is closed with the dialect’s code and reason once it stays behind, leaves at once, and the others keep theirs', async () => {
    const { fan, peers, port } = await server({ limits: { coalesceAboveBytes: 16 * 1024, slowCloseMs: 50 } });
    const slow = await connect(port);
    const healthy = await connect(port);
    await expect.poll(() => peers.length).toBe(2);
    const resume = slow.pause();
    let round = 0;
    await expect
      .poll(
        async () => {
          round += 1;
          for (const p of fan.peers()) offerRound(p, 200, round);
          await new Promise((r) => setTimeout(r, 5));
          return fan.size;
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    expect([...fan.peers()][0]).toBe(peers[1]);
    resume();
    await expect
      .poll(() => slow.closed)
      .toEqual({ code: 4008, reason: expect.stringMatching(/^too slow: .*; read faster$/) });
    const seen = healthy.messages.length;
    peers[1]!.send(JSON.stringify({ must: 1 }));
    await expect.poll(() => healthy.messages.length).toBeGreaterThan(seen);
    expect(healthy.closed).toBeNull();
  });

  it('with more than the hard bound unsent is closed at once', async () => {
    const { fan, peers, port } = await server({
      limits: { coalesceAboveBytes: 1024 * 1024, closeAboveBytes: 256 * 1024, slowCloseMs: 60_000 },
    });
    const slow = await connect(port);
    await expect.poll(() => peers.length).toBe(1);
    slow.pause();
    // Messages that must arrive are never kept back: the hard bound is what stops them.
    const pad = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 4_000 && fan.size > 0; i++) peers[0]!.send(JSON.stringify({ must: i, pad }));
    expect(fan.size).toBe(0);
    expect(peers[0]!.closed).toBe(true);
  });
});

describe('liveness and the session', () => {
  it('a peer that stops answering pings is dropped; one that answers stays', async () => {
    const { fan, port } = await server({ limits: { deadAfterMs: 200 } });
    const dead = await connect(port, { autoPong: false });
    const alive = await connect(port);
    await expect.poll(() => dead.closed, { timeout: 10_000 }).not.toBeNull();
    expect(fan.size).toBe(1);
    expect(alive.closed).toBeNull();
  });

  it('a peer whose session ended is closed with the dialect’s code and leaves at once, even if it never reads', async () => {
    const { fan, peers, port } = await server();
    const c = await connect(port);
    await expect.poll(() => peers.length).toBe(1);
    const resume = c.pause();
    peers[0]!.state.revoked = true;
    await expect.poll(() => fan.size).toBe(0);
    resume();
    await expect.poll(() => c.closed).toEqual({ code: 4001, reason: 'session over' });
  });

  it('a quiet peer gets the dialect’s heartbeat; a busy one need not', async () => {
    const { peers, port } = await server({ heartbeat: (p) => (p.sentSinceBeat ? null : JSON.stringify({ must: -1 })) });
    const c = await connect(port);
    await expect.poll(() => peers.length).toBe(1);
    await expect.poll(() => c.messages.filter((m) => m.must === -1).length).toBeGreaterThanOrEqual(2);
  });

  it('cutting the server drops every peer and forgets them', async () => {
    const { fan, port } = await server();
    const a = await connect(port);
    const b = await connect(port);
    await expect.poll(() => fan.size).toBe(2);
    expect(fan.cut()).toBe(2);
    expect(fan.size).toBe(0);
    await expect.poll(() => [a.closed?.code, b.closed?.code]).toEqual([1006, 1006]);
  });
});
