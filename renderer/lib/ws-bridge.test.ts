import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IpcResult } from '@shared/ipc/result';
import { BRIDGE_REPLACED } from '@shared/domain/workstation';
import { createWsBridge } from './ws-bridge';

/**
 * The browser host's bridge transport against a fake WebSocket: every call is answered once,
 * truthfully, and a call whose caller was answered is never sent afterwards.
 */

/** A WebSocket the test opens, closes and answers by hand; every instance is recorded. */
class FakeSocket {
  static readonly all: FakeSocket[] = [];
  readyState = 0;
  readonly sent: string[] = [];
  onopen: (() => void) | null = null;
  onclose: ((ev?: { code: number }) => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string): void {
    if (this.readyState !== 1) throw new Error('send on a socket that is not open');
    this.sent.push(data);
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  reply(id: number, result: unknown): void {
    this.onmessage?.({ data: JSON.stringify({ id, result }) });
  }
  /** The channels of the messages this socket carried. */
  channels(): string[] {
    return this.sent.map((m) => (JSON.parse(m) as { channel: string }).channel);
  }
}

/** The newest socket the bridge opened. */
function latest(): FakeSocket {
  const s = FakeSocket.all.at(-1);
  if (!s) throw new Error('no socket yet');
  return s;
}

/** Every message sent on every socket, as {id, channel}. */
function everySent(): Array<{ id: number; channel: string }> {
  return FakeSocket.all.flatMap((s) => s.sent.map((m) => JSON.parse(m) as { id: number; channel: string }));
}

function bridge() {
  return createWsBridge('ws://127.0.0.1:1/bridge?key=k', {
    connectWaitMs: 5_000,
    WebSocket: FakeSocket as unknown as new (url: string) => WebSocket,
  });
}

/** Records what a call was answered, and when (in fake-timer ms). */
function track(p: Promise<IpcResult<unknown>>) {
  const t: { result: IpcResult<unknown> | null } = { result: null };
  void p.then((r) => (t.result = r));
  return t;
}

beforeEach(() => {
  FakeSocket.all.length = 0;
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('createWsBridge', () => {
  it('answers a call with the reply that carries its id', async () => {
    const desk = bridge();
    latest().open();
    const call = track(desk.invoke('orders.list'));
    latest().reply(1, { ok: true, data: [] });
    await vi.advanceTimersByTimeAsync(0);
    expect(call.result).toEqual({ ok: true, data: [] });
  });

  it('never sends a call larger than the host takes (it would close the socket under an order in flight): answered at once, naming the sizes', async () => {
    const desk = bridge();
    latest().open();
    const place = track(desk.invoke('orders.place', { order: {}, requestId: 'req-00000002' } as never));
    const csv = `symbol,trade_id\n${'INFY,1\n'.repeat((300 * 1024) / 7)}`;
    const big = track(desk.invoke('journal.importCsv', { csv, equityProduct: 'CNC' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(big.result).toMatchObject({
      ok: false,
      error: {
        kind: 'bad_request',
        message: expect.stringMatching(/^Not sent: 343 KB is more than the 256 KB the desk takes in one request$/),
      },
    });
    expect(latest().channels()).toEqual(['orders.place']);
    latest().reply(1, { ok: true, data: { state: 'placed' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(place.result).toEqual({ ok: true, data: { state: 'placed' } });
  });

  it('answers a sent call "disconnected" when the socket closes, and never sends it again after reconnecting', async () => {
    const desk = bridge();
    const first = latest();
    first.open();
    const place = track(desk.invoke('orders.place', { order: {}, requestId: 'req-00000001' } as never));
    expect(first.channels()).toEqual(['orders.place']);

    first.drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(place.result).toMatchObject({ ok: false, error: { kind: 'disconnected' } });

    await vi.advanceTimersByTimeAsync(10_000); // the reconnect timer fires
    const second = latest();
    expect(second).not.toBe(first);
    second.open();
    expect(everySent().filter((m) => m.channel === 'orders.place')).toHaveLength(1);
    expect(second.sent).toEqual([]);
  });

  it('holds one socket at a time: the next opens only after the last one closed, however long either takes', async () => {
    bridge();
    const live = () => FakeSocket.all.filter((s) => s.readyState < 3).length;
    for (let drop = 0; drop < 5; drop += 1) {
      await vi.advanceTimersByTimeAsync(60_000); // connecting for a minute: no second attempt beside it
      expect(live()).toBe(1);
      latest().open();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(live()).toBe(1);
      latest().drop();
      expect(live()).toBe(0);
    }
    await vi.advanceTimersByTimeAsync(10_000);
    expect(FakeSocket.all).toHaveLength(6);
  });

  it('does not reconnect once a newer page of its window replaced it (no tug of war between two tabs)', async () => {
    bridge();
    const first = latest();
    first.open();
    first.drop(BRIDGE_REPLACED);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(latest()).toBe(first);
  });

  it('sends a call made while the socket is down once it connects, within the wait', async () => {
    const desk = bridge();
    const list = track(desk.invoke('placements.list'));
    await vi.advanceTimersByTimeAsync(4_000);
    expect(list.result).toBeNull();
    latest().open();
    expect(latest().channels()).toEqual(['placements.list']);
    latest().reply(1, { ok: true, data: [] });
    await vi.advanceTimersByTimeAsync(0);
    expect(list.result).toEqual({ ok: true, data: [] });
    // Its wait timer was cleared: no second answer, no "not sent" afterwards.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(list.result).toEqual({ ok: true, data: [] });
  });

  it('answers a call that waited past the bound "network: Not sent" and then never sends it', async () => {
    const desk = bridge();
    const place = track(desk.invoke('orders.place', { order: {}, requestId: 'req-00000002' } as never));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(place.result).toEqual({
      ok: false,
      error: { kind: 'network', message: 'Not sent: no connection to the Tradedesk service' },
    });
    latest().open();
    expect(everySent()).toEqual([]);
  });

  it('keeps a queued call queued (not "disconnected") when a connection attempt fails, and sends it on the next', async () => {
    const desk = bridge();
    const first = latest();
    const call = track(desk.invoke('orders.list'));
    first.drop(); // the connection attempt failed before it opened
    await vi.advanceTimersByTimeAsync(300);
    expect(call.result).toBeNull();
    await vi.advanceTimersByTimeAsync(1_000);
    latest().open();
    expect(latest()).not.toBe(first);
    expect(latest().channels()).toEqual(['orders.list']);
  });

  it('delivers events to their listeners and refuses an unknown event name', () => {
    const desk = bridge();
    latest().open();
    const seen: unknown[] = [];
    const off = desk.on('placements.changed', (p) => seen.push(p));
    latest().onmessage?.({ data: JSON.stringify({ event: 'placements.changed', payload: { placements: [] } }) });
    off();
    latest().onmessage?.({ data: JSON.stringify({ event: 'placements.changed', payload: { placements: [1] } }) });
    expect(seen).toEqual([{ placements: [] }]);
    expect(() => desk.on('nope' as never, () => undefined)).toThrow(/unknown event/);
  });
});
