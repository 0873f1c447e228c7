import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { EventHub } from '../app/event-hub';
import { createDispatcher, type Handlers } from '../app/dispatcher';
import { rawHttp, upgradeRequest } from '../paper/raw-http';
import type { BridgeLimits } from './bridge-sender';
import { startHost, type RunningHost } from './host-server';

const dir = mkdtempSync(join(tmpdir(), 'host-test-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
const hub = new EventHub();
const handlers = new Proxy({} as Handlers, {
  get: () => async (input: unknown) => ({ echoed: input ?? null }),
});
let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ port: 0, rendererDir: dir, dispatch: createDispatcher(handlers), events: hub });
});
afterAll(() => host.close());

const origin = () => `http://127.0.0.1:${host.port}`;

function open(query: string, headers: Record<string, string> = { Origin: origin() }): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge${query}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function next(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
}

describe('browser host', () => {
  it('serves the renderer with the CSP and no-store on the page', async () => {
    const res = await fetch(`${origin()}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 404 for traversal and missing files, 405 for writes', async () => {
    expect((await fetch(`${origin()}/..%2f..%2fetc%2fpasswd`)).status).toBe(404);
    expect((await fetch(`${origin()}/missing.js`)).status).toBe(404);
    expect((await fetch(`${origin()}/`, { method: 'POST', body: 'x' })).status).toBe(405);
  });

  it('serves a page built again under it afresh, and a file missing at first once it exists', async () => {
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>built again</title>');
    expect(await (await fetch(`${origin()}/`)).text()).toContain('built again');
    expect((await fetch(`${origin()}/assets/late-a1b2c3d4.js`)).status).toBe(404);
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'assets', 'late-a1b2c3d4.js'), 'export {};');
    const late = await fetch(`${origin()}/assets/late-a1b2c3d4.js`);
    expect(late.status).toBe(200);
    expect(late.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await late.text()).toBe('export {};');
  });

  it('refuses the bridge without the key, with a wrong key, or from another origin', async () => {
    await expect(open('')).rejects.toThrow('HTTP 401');
    await expect(open(`?key=${'f'.repeat(64)}`)).rejects.toThrow('HTTP 401');
    await expect(open(`?key=${host.secret}`, { Origin: 'http://evil.example' })).rejects.toThrow('HTTP 401');
    await expect(open(`?key=${host.secret}`, {})).rejects.toThrow('HTTP 401');
  });

  it('carries calls to the dispatcher and events to the page', async () => {
    const ws = await open(`?key=${host.secret}`);
    ws.send(JSON.stringify({ id: 7, channel: 'instruments.list', payload: { exchange: 'NSE' } }));
    expect(await next(ws)).toEqual({ id: 7, result: { ok: true, data: { echoed: { exchange: 'NSE' } } } });

    ws.send('not json');
    expect(await next(ws)).toMatchObject({
      id: null,
      result: { ok: false, error: { kind: 'bad_request', field: 'id' } },
    });

    const event = next(ws);
    const version = { run: 'r', seq: 3 };
    hub.emit('session.expired', { reason: 'test', version });
    expect(await event).toEqual({ event: 'session.expired', payload: { reason: 'test', version } });
    ws.close();
  });
});

describe('hostile input to the browser host', () => {
  it.each(['//[', 'http://[::1/'])('GET %s answers 400 and the host keeps serving', async (target) => {
    const r = await rawHttp(host.port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(r?.status).toBe(400);
    expect((await fetch(`${origin()}/`)).status).toBe(200);
  });

  it('an upgrade to a target new URL() rejects is refused, and the host keeps serving', async () => {
    const r = await rawHttp(host.port, upgradeRequest(`//[/bridge?key=${host.secret}`, { Origin: origin() }));
    expect(r?.status).toBe(400);
    expect((await fetch(`${origin()}/`)).status).toBe(200);
  });

  it.each([
    { what: 'a text frame over 256 KiB', frame: 'x'.repeat(300 * 1024), code: 1009 },
    { what: 'invalid UTF-8 (7b ff fe 7d)', frame: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), code: 1007 },
  ])('$what closes that bridge with $code and the host keeps serving', async ({ frame, code }) => {
    const ws = await open(`?key=${host.secret}`);
    const closed = new Promise<number>((resolve) => ws.once('close', (c) => resolve(c)));
    ws.on('error', () => undefined);
    ws.send(frame, { binary: false });
    expect(await closed).toBe(code);
    const again = await open(`?key=${host.secret}`);
    again.send(JSON.stringify({ id: 1, channel: 'funds.get' }));
    expect(await next(again)).toMatchObject({ id: 1, result: { ok: true } });
    again.close();
  });
});

describe('a bridge that does not read', () => {
  const tick = (token: number, price: number) => ({
    instrumentToken: token,
    lastPrice: price,
    volume: 1,
    ts: '2026-11-23T15:05:41+05:30',
  });

  async function hostWith(limits: Partial<BridgeLimits>): Promise<{ h: RunningHost; hub: EventHub }> {
    const hub2 = new EventHub();
    const h = await startHost({
      port: 0,
      rendererDir: dir,
      dispatch: createDispatcher(handlers),
      events: hub2,
      bridgeLimits: limits,
    });
    return { h, hub: hub2 };
  }

  function bridge(h: RunningHost, options: { autoPong?: boolean } = {}) {
    const ws = new WebSocket(`ws://127.0.0.1:${h.port}/bridge?key=${h.secret}`, {
      headers: { Origin: `http://127.0.0.1:${h.port}` },
      ...options,
    });
    const events: Array<{ event: string; payload: { ticks?: Array<{ instrumentToken: number; lastPrice: number }> } }> =
      [];
    const state = { closed: null as { code: number; reason: string } | null };
    ws.on('message', (d) => events.push(JSON.parse(d.toString())));
    ws.on('close', (code, reason) => (state.closed = { code, reason: reason.toString() }));
    ws.on('error', () => undefined);
    const opened = new Promise((resolve) => ws.once('open', resolve));
    const pause = () => {
      const socket = (ws as unknown as { _socket: Socket })._socket;
      socket.pause();
      return () => socket.resume();
    };
    return { ws, events, state, opened, pause };
  }

  it('holds at most the bound of unsent bytes and delivers the latest tick of each instrument when it reads again', async () => {
    const bound = 64 * 1024;
    const { h, hub: events } = await hostWith({ coalesceAboveBytes: bound, slowCloseMs: 60_000 });
    try {
      const slow = bridge(h);
      await slow.opened;
      const resume = slow.pause();
      let offered = 0;
      let most = 0;
      for (let round = 0; round < 300; round++) {
        const ticks = Array.from({ length: 500 }, (_, i) => tick(i + 1, round + 1));
        events.emit('market.ticks', { ticks });
        offered += JSON.stringify({ event: 'market.ticks', payload: { ticks } }).length;
        most = Math.max(most, ...h.bridgeStats().map((b) => b.bufferedBytes));
        await new Promise((r) => setImmediate(r));
      }
      expect(offered).toBeGreaterThan(40 * bound);
      expect(most).toBeLessThan(bound + 500 * 200);
      resume();
      await expect
        .poll(() => {
          const latest = new Map<number, number>();
          for (const e of slow.events)
            for (const t of e.payload.ticks ?? []) latest.set(t.instrumentToken, t.lastPrice);
          return latest.size === 500 && [...latest.values()].every((p) => p === 300);
        })
        .toBe(true);
      expect(slow.state.closed).toBeNull();
      slow.ws.close();
    } finally {
      await h.close();
    }
  });
});
