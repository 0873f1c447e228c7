import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDispatcher } from './dispatcher';
import { createAppServices, type AppServices } from './app-services';
import { listInstruments } from './testing/app-on-paper';
import { marketBuy } from '../core/testing/core-fixture';

describe('createAppServices on the embedded paper broker', () => {
  let dir: string;
  let services: AppServices;
  let dispatch: ReturnType<typeof createDispatcher>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-app-'));
    services = await createAppServices({ dataDir: dir, paper: { tickIntervalMs: 0 } });
    dispatch = createDispatcher(services.handlers);
  });
  afterAll(async () => {
    await services.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('starts logged in to the paper broker, without exposing the token', async () => {
    const res = await dispatch('session.status', undefined);
    expect(res).toMatchObject({ ok: true, data: { state: 'connected', broker: 'paper' } });
    expect(services.paperUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(JSON.stringify(res)).not.toMatch(/token"\s*:/i);
  });

  it('pushes orders.changed from the stream when an order changes, and reports the stream open', async () => {
    const updates: string[] = [];
    const off = services.events.on('orders.changed', (d) => updates.push(...d.upserts.map((o) => o.status)));
    const placed = await dispatch('orders.place', { order: marketBuy(await listInstruments(dispatch)) });
    expect(placed.ok).toBe(true);
    await vi.waitFor(() => expect(updates.length).toBeGreaterThan(0), { timeout: 5_000 });
    off();
    expect(await dispatch('connection.status', undefined)).toMatchObject({
      ok: true,
      data: { rest: 'up', stream: 'open' },
    });
  });

  it('lists instruments, places an order and sees it in the order book', async () => {
    const placed = await dispatch('orders.place', {
      order: marketBuy(await listInstruments(dispatch)),
      clickedAt: Date.now(),
    });
    if (!placed.ok) throw new Error(placed.error.message);
    const orderId = (placed.data as { orderId: string }).orderId;
    const orders = await dispatch('orders.list', undefined);
    expect(orders.ok && (orders.data as Array<{ orderId: string }>).some((o) => o.orderId === orderId)).toBe(true);
    const history = await dispatch('orders.history', { orderId });
    expect(history.ok).toBe(true);
    if (history.ok) {
      const hops = (history.data as { timeline: Array<{ hop: string }> }).timeline.map((h) => h.hop);
      expect(hops.slice(0, 4)).toEqual(['clicked', 'journaled', 'sent', 'acknowledged']);
    }
  });

  it('answers connection.usage with the requests sent against the paper broker’s published limit, and pushes usage.changed when it moves', async () => {
    const pushed: number[] = [];
    const off = services.events.on('usage.changed', (u) => pushed.push(u.requests));
    await dispatch('funds.get', undefined);
    const usage = await dispatch('connection.usage', undefined);
    expect(usage).toMatchObject({
      ok: true,
      data: {
        broker: 'Paper broker',
        windowMs: 30_000,
        limit: { perSecond: 10, burst: 20 },
        limitSource: 'broker',
        pace: { perSecond: 8, burst: 16 },
      },
    });
    // The funds read is in the window (and the login's reads, unless they have aged out).
    expect(usage.ok && (usage.data as { requests: number }).requests).toBeGreaterThanOrEqual(1);
    await vi.waitFor(() => expect(pushed.length).toBeGreaterThan(0), { timeout: 5_000 });
    off();
  });
});
