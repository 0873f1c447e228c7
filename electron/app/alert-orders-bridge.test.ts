import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PriceAlert } from '@shared/domain/alert';
import type { Order, OrderRequest } from '@shared/domain/order';
import type { PlaceOutcome } from '@shared/domain/placement';
import { NO_RISK_LIMITS } from '@shared/domain/risk';
import { AppError } from '@shared/ipc/app-error';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';
import { BARRIER_MESSAGE } from '../core/safety/kill-barrier';
import { AlertBook } from './alerts/alert-book';
import { AlertOrders } from './alerts/alert-orders';
import { SettingsStore } from './settings/settings-store';
import { useAppOnPaper } from './testing/app-on-paper';

/**
 * Alerts that place orders (docs/contract.md §Alerts that place orders), through main's services
 * and the dispatcher against the real paper broker: a basket placed once however often its firing
 * is seen, judged by the risk guard as it fires, and stopped by the kill switch's barrier.
 */
describe('alerts that place orders', () => {
  const ordered: PriceAlert[] = [];
  const app = useAppOnPaper({
    name: 'alert-orders',
    paper: { startingCash: 1e9 },
    problems: () => undefined,
    started: (services) => services.events.on('alerts.ordered', (a) => ordered.push(a)),
    prices: { INFY: 1500, TCS: 3500 },
  });
  const { dispatch } = app;

  const buy = (tradingsymbol: string, quantity: number): OrderRequest => ({
    ...INFY_MARKET_BUY,
    tradingsymbol,
    quantity,
  });
  const orders = async (): Promise<Order[]> => {
    const r = await dispatch('orders.list', undefined);
    if (!r.ok) throw new Error(r.error.message);
    return r.data as Order[];
  };
  const create = async (draft: Record<string, unknown>): Promise<PriceAlert> => {
    const r = await dispatch('alerts.create', draft);
    if (!r.ok) throw new Error(r.error.message);
    return r.data as PriceAlert;
  };

  beforeEach(async () => {
    ordered.length = 0;
    await dispatch('risk.set', { limits: NO_RISK_LIMITS });
  });

  it('places a basket carried by an alert once, fired twice in one tick and again after a restart', async () => {
    // The alert book and its orders as main wires them, placing through the bridge's `orders.place`.
    const place = async (order: OrderRequest, requestId: string): Promise<PlaceOutcome> => {
      const r = await dispatch('orders.place', { order, requestId });
      if (!r.ok) throw new AppError(r.error);
      return r.data as PlaceOutcome;
    };
    const read = async (orderId: string) => {
      const r = await dispatch('orders.get', { orderId });
      if (!r.ok) throw new AppError(r.error);
      return r.data as Order;
    };
    const deps = { place, read, wait: () => Promise.resolve(), now: () => 0 };
    const outcomes: PriceAlert[] = [];
    const book = new AlertBook({
      settings: new SettingsStore(join(app.dir, 'own-settings.json')),
      watch: () => undefined,
      onFired: () => undefined,
      onChanged: () => undefined,
      placeOrders: (a) => new AlertOrders(deps).fire(a),
      onOrdered: (a) => outcomes.push(a),
    });
    await book.load('test');
    const basket = [buy('INFY', 10), buy('TCS', 5), { ...buy('INFY', 4), transactionType: 'SELL' as const }];
    const alert = await book.create(
      { instrumentToken: app.token('INFY'), condition: 'crosses_up', price: 1510, orders: basket },
      {
        instrumentToken: app.token('INFY'),
        exchange: 'NSE',
        tradingsymbol: 'INFY',
      } as Parameters<AlertBook['create']>[1],
    );
    const before = (await orders()).length;
    const tick = { instrumentToken: app.token('INFY'), lastPrice: 1500, volume: 1, ts: new Date().toISOString() };
    book.onTick(tick);
    // The crossing tick, delivered twice (a repeated frame, a second evaluation).
    const crossing = { ...tick, lastPrice: 1512 };
    book.onTick(crossing);
    book.onTick(crossing);
    await vi.waitFor(() => expect(outcomes).toHaveLength(1), { timeout: 15_000 });
    expect(outcomes[0]!.outcome).toMatchObject({ state: 'placed', detail: 'All 3 orders placed' });
    const ids = outcomes[0]!.outcome!.legs.map((l) => l.orderId);
    // The same firing placed again, as a restart before its fired state was kept would: the
    // request ids derive from the firing, so main answers the orders it already placed.
    const again = await new AlertOrders(deps).fire({ ...alert, state: 'triggered' });
    expect(again.legs.map((l) => l.orderId)).toEqual(ids);
    const placed = (await orders()).slice(before);
    expect(placed.map((o) => `${o.transactionType} ${o.quantity} ${o.tradingsymbol}`).sort()).toEqual([
      'BUY 10 INFY',
      'BUY 5 TCS',
      'SELL 4 INFY',
    ]);
    // Sells after buys, as the basket sends them: the sell went only once the buys had filled.
    expect(outcomes[0]!.outcome!.legs.map((l) => l.state)).toEqual(['placed', 'placed', 'placed']);
    const buys = placed.filter((o) => o.transactionType === 'BUY');
    expect(buys.map((o) => o.status)).toEqual(['COMPLETE', 'COMPLETE']);
    // Its outcome is saved in the background, into the folder the suite removes.
    await book.idle();
  });

  it('is judged by the risk guard when it fires, not when it is made', async () => {
    const before = (await orders()).length;
    const alert = await create({
      instrumentToken: app.token('TCS'),
      condition: 'above',
      price: 3520,
      orders: [buy('TCS', 100)],
    });
    // Fine when made; the trader then sets a hard limit of ₹1,00,000 an order (this one is ₹3,52,000).
    const set = await dispatch('risk.set', {
      limits: { ...NO_RISK_LIMITS, maxOrderValue: { value: 100_000, hard: true } },
    });
    expect(set.ok).toBe(true);
    app.setPrice('TCS', 3521);
    await vi.waitFor(() => expect(ordered.find((a) => a.id === alert.id)).toBeDefined(), { timeout: 15_000 });
    const fired = ordered.find((a) => a.id === alert.id)!;
    expect(fired.outcome?.state).toBe('refused');
    expect(fired.outcome?.detail).toMatch(/^Not placed: Order value ₹[\d,.]+ exceeds your limit of ₹1,00,000$/);
    expect((await orders()).length).toBe(before);
    // The list shows it too.
    const listed = await dispatch('alerts.list', undefined);
    expect((listed.ok ? (listed.data as PriceAlert[]) : []).find((a) => a.id === alert.id)?.outcome?.state).toBe(
      'refused',
    );
  });

  it('sends nothing that adds risk while the kill switch is on', async () => {
    const run = await dispatch('safety.start', { kind: 'killSwitch', exitPositions: false });
    expect(run.ok).toBe(true);
    const before = (await orders()).length;
    const alert = await create({
      instrumentToken: app.token('INFY'),
      condition: 'below',
      price: 1490,
      orders: [buy('INFY', 1)],
    });
    app.setPrice('INFY', 1489);
    await vi.waitFor(() => expect(ordered.find((a) => a.id === alert.id)).toBeDefined(), { timeout: 15_000 });
    const fired = ordered.find((a) => a.id === alert.id)!;
    expect(fired.outcome).toMatchObject({ state: 'refused', legs: [{ state: 'refused', detail: BARRIER_MESSAGE }] });
    expect((await orders()).length).toBe(before);
    await dispatch('safety.rearm', undefined);
  });

  it('refuses a carried order that breaks a trading rule, naming its leg and field', async () => {
    const r = await dispatch('alerts.create', {
      instrumentToken: app.token('INFY'),
      condition: 'above',
      price: 1600,
      orders: [buy('INFY', 1), { ...buy('INFY', 1), orderType: 'LIMIT' }],
    });
    expect(r).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'orders.1.price' } });
    const many = await dispatch('alerts.create', {
      instrumentToken: app.token('INFY'),
      condition: 'above',
      price: 1600,
      orders: Array.from({ length: 21 }, () => buy('INFY', 1)),
    });
    expect(many).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'orders' } });
    const study = await dispatch('alerts.create', {
      instrumentToken: app.token('INFY'),
      condition: 'above',
      basis: { kind: 'ema', period: 20, interval: '5minute' },
    });
    expect(study).toMatchObject({ ok: false, error: { field: 'condition' } });
  });
});
