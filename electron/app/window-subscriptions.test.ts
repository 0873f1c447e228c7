import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BRIDGE_NO_SUCH_WINDOW, BRIDGE_REPLACED } from '@shared/domain/workstation';
import { WebSocket } from 'ws';
import { startHost, type RunningHost } from '../host/host-server';
import { useAppOnPaper } from './testing/app-on-paper';

/**
 * Ticks fan out to every window from one broker subscription per instrument, whatever the number
 * of windows showing it (docs/workstation.md §What a pop-out costs): three pages of the desk —
 * the main window and two pop-outs, each on its own bridge socket as in the browser host — watch
 * the same instrument with panels of the same name, as the renderer names them. The broker, a
 * paper broker in this process, is asked what the app's stream socket is subscribed to.
 */
describe('one broker subscription per instrument, whatever the number of windows', () => {
  const app = useAppOnPaper({ name: 'window-subs', config: { log: () => undefined } });
  const { dispatch } = app;
  let host: RunningHost;
  let infy = 0;
  let tcs = 0;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    await writeFile(join(app.dir, 'index.html'), '<!doctype html><title>t</title>');
    const { services } = app;
    host = await startHost({
      port: 0,
      rendererDir: app.dir,
      dispatch,
      events: services.events,
      pages: {
        opened: (caller, window) => services.workstation.pageOpened(caller, window),
        closed: (caller) => services.workstation.pageClosed(caller),
      },
    });
    infy = app.token('INFY');
    tcs = app.token('TCS');
  });
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await host.close();
  });

  /** A page of the desk drawing `window`, on its own bridge socket. */
  async function page(window: string | null): Promise<{
    call(channel: string, payload: unknown): Promise<unknown>;
    /** Resolves with the close code once the host closes the socket. */
    closed: Promise<number>;
  }> {
    const query = `key=${host.secret}${window ? `&window=${window}` : ''}`;
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge?${query}`, {
      headers: { Origin: `http://127.0.0.1:${host.port}` },
    });
    sockets.push(ws);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    let seq = 0;
    const waiting = new Map<number, (r: unknown) => void>();
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { id?: number; result?: unknown };
      if (typeof m.id === 'number') waiting.get(m.id)?.(m.result);
    });
    return {
      closed,
      call: (channel, payload) =>
        new Promise((resolve) => {
          const id = ++seq;
          waiting.set(id, resolve);
          ws.send(JSON.stringify({ id, channel, payload }));
        }),
    };
  }

  /** What the broker streams to the app: its one stream socket's subscribed instruments. */
  const brokerSubscribed = (): number[] => app.paper.streamStats().map((s) => s.subscribed);

  /** Opens a pop-out on the desk; returns its id. */
  async function popout(): Promise<string> {
    const r = await dispatch('desk.open', {
      panel: { kind: 'watchlist', link: null, instrument: null, options: {} },
      to: 'new',
    });
    if (!r.ok) throw new Error(r.error.message);
    return (r.data as { window: string }).window;
  }

  it('a page claiming a pop-out the desk has not opened is closed (4004) and shown nowhere', async () => {
    const stray = await page('w77');
    expect(await stray.closed).toBe(BRIDGE_NO_SUCH_WINDOW);
    expect(app.services.workstation.view().open).not.toContain('w77');
  });

  it('a second page of the main window (a reload) takes it: the older one is closed (4001), the newer one served', async () => {
    const before = await page(null);
    expect(await before.call('market.subscribe', { owner: 'watchlist', tokens: [] })).toMatchObject({ ok: true });
    const reloaded = await page('main');
    expect(await before.closed).toBe(BRIDGE_REPLACED);
    expect(await reloaded.call('market.subscribe', { owner: 'watchlist', tokens: [] })).toMatchObject({ ok: true });
    // A pop-out's own page is bound to it; a reload of it (two sockets for a moment) is too.
    const w = await popout();
    const one = await page(w);
    const again = await page(w);
    expect(app.services.workstation.view().open).toEqual(['main', w]);
    for (const p of [one, again])
      expect(await p.call('market.subscribe', { owner: 'watchlist', tokens: [] })).toMatchObject({ ok: true });
    expect(await dispatch('desk.close', { window: w })).toMatchObject({ ok: true });
  });

  it('three windows watching INFY: one subscription; it stays while any window shows it and goes with the last', async () => {
    await vi.waitFor(() => expect(brokerSubscribed()).toEqual([0]), { timeout: 10_000 });
    const [w1, w2] = [await popout(), await popout()];
    const main = await page(null);
    const one = await page(w1);
    const two = await page(w2);

    // Every window's watchlist (each named `watchlist` by its own page) shows INFY, one chart TCS.
    for (const p of [main, one, two])
      expect(await p.call('market.subscribe', { owner: 'watchlist', tokens: [infy] })).toMatchObject({ ok: true });
    expect(await two.call('market.subscribe', { owner: 'chart', tokens: [tcs] })).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(brokerSubscribed()).toEqual([2]), { timeout: 10_000 });

    // The second pop-out's watchlist is closed (its panel unmounts): INFY still streams for the other two.
    expect(await two.call('market.subscribe', { owner: 'watchlist', tokens: [] })).toMatchObject({
      ok: true,
      data: { subscribed: 2 },
    });
    // The main window's watchlist goes too: the first pop-out still shows INFY.
    expect(await main.call('market.subscribe', { owner: 'watchlist', tokens: [] })).toMatchObject({
      ok: true,
      data: { subscribed: 2 },
    });
    // The second pop-out closes with its chart: TCS is no longer watched by anyone.
    expect(await dispatch('desk.close', { window: w2 })).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(brokerSubscribed()).toEqual([1]), { timeout: 10_000 });
    // The last window showing INFY closes: nothing is streamed any more.
    expect(await dispatch('desk.close', { window: w1 })).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(brokerSubscribed()).toEqual([0]), { timeout: 10_000 });
  });
});
