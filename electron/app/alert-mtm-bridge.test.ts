import { describe, expect, it, vi } from 'vitest';
import type { PriceAlert } from '@shared/domain/alert';
import { useAppOnPaper } from './testing/app-on-paper';

/**
 * An alert on the day's MTM through main's services on the paper broker (docs/contract.md §Alerts
 * that place orders): main measures the figure as the MTM stop and target do — no levels set, no
 * window watching — and the alert fires once the account's MTM is below its figure.
 */
describe('an MTM alert over the bridge', () => {
  const fired: PriceAlert[] = [];
  const app = useAppOnPaper({
    name: 'alert-mtm',
    prices: { INFY: 1500 },
    started: (services) => services.events.on('alerts.fired', (a) => fired.push(a)),
  });
  const { dispatch } = app;

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
    app.setPrice('INFY', 1490);
    await vi.waitFor(async () => {
      const r = await dispatch('positions.list', undefined);
      expect(r.ok && (r.data as Array<{ quantity: number }>).some((p) => p.quantity === 100)).toBe(true);
    });
    app.setPrice('INFY', 1491);
    expect(fired).toHaveLength(0);
    // −₹6,000 or so: below −₹5,000.
    // Each attempt a tick a paisa lower: the alert is judged on the ticks main receives.
    let price = 1440;
    await vi.waitFor(
      () => {
        price -= 0.05;
        app.setPrice('INFY', price);
        expect(fired).toHaveLength(1);
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(fired[0]!.triggeredPrice).toBeLessThan(-5_000);
  });
});
