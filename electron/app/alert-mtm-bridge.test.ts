import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PriceAlert } from '@shared/domain/alert';
import { createDispatcher } from './dispatcher';
import { createAppServices, type AppServices } from './app-services';
import { startPaperBroker, type PaperBroker } from '../paper';

/**
 * An alert on the day's MTM through main's services on the paper broker (docs/contract.md §Alerts
 * that place orders): main measures the figure as the MTM stop and target do — no levels set, no
 * window watching — and the alert fires once the account's MTM is below its figure.
 */
describe('an MTM alert over the bridge', () => {
  let dir: string;
  let paper: PaperBroker;
  let services: AppServices;
  let dispatch: ReturnType<typeof createDispatcher>;
  let token = 0;
  const fired: PriceAlert[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-alert-mtm-'));
    paper = await startPaperBroker({ port: 0, tickIntervalMs: 0 });
    services = await createAppServices({ dataDir: dir, brokerUrl: paper.url, apiKey: 'paper', apiSecret: 'paper' });
    dispatch = createDispatcher(services.handlers);
    services.events.on('alerts.fired', (a) => fired.push(a));
    const list = await dispatch('instruments.list', { exchange: 'NSE' });
    if (!list.ok) throw new Error(list.error.message);
    token = (list.data as Array<{ instrumentToken: number; tradingsymbol: string }>).find(
      (i) => i.tradingsymbol === 'INFY',
    )!.instrumentToken;
    paper.setPrice(token, 1500);
  });
  afterAll(async () => {
    await services.close();
    await paper.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('fires when a price move takes the MTM below its figure, and not before', async () => {
    const placed = await dispatch('orders.place', {
      order: {
        exchange: 'NSE',
        tradingsymbol: 'INFY',
        transactionType: 'BUY',
        quantity: 100,
        orderType: 'MARKET',
        product: 'MIS',
        validity: 'DAY',
      },
    });
    expect(placed.ok).toBe(true);
    const made = await dispatch('alerts.create', { condition: 'below', price: -5_000, basis: { kind: 'mtm' } });
    expect(made.ok, made.ok ? '' : made.error.message).toBe(true);
    // A small move: about −₹1,000 on 100 shares, above the figure.
    paper.setPrice(token, 1490);
    await vi.waitFor(async () => {
      const r = await dispatch('positions.list', undefined);
      expect(r.ok && (r.data as Array<{ quantity: number }>).some((p) => p.quantity === 100)).toBe(true);
    });
    paper.setPrice(token, 1491);
    expect(fired).toHaveLength(0);
    // −₹6,000 or so: below −₹5,000.
    // Each attempt a tick a paisa lower: the alert is judged on the ticks main receives.
    let price = 1440;
    await vi.waitFor(
      () => {
        price -= 0.05;
        paper.setPrice(token, price);
        expect(fired).toHaveLength(1);
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(fired[0]!.triggeredPrice).toBeLessThan(-5_000);
  });
});
