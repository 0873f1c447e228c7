import { describe, expect, it, vi } from 'vitest';
import type { PriceAlert } from '@shared/domain/alert';
import { useAppOnPaper } from './testing/app-on-paper';

/**
 * An alert on a cross of the session's VWAP, through main's services against the paper market at
 * 11:00 IST on a trading day (its morning's bars read from the broker): it fires on the price
 * moving through the study's level, downwards only (docs/contract.md §Alerts that place orders).
 */
describe('an alert on a cross of VWAP', () => {
  const app = useAppOnPaper({
    name: 'alert-study',
    // Wednesday 25 Nov 2026, 11:00 IST: the session has run since 09:15.
    paper: { marketClock: { at: Date.parse('2026-11-25T11:00:00+05:30'), speed: 1 } },
    problems: () => undefined,
  });
  const { dispatch } = app;

  it('fires when the price crosses below the session VWAP of the bars main read from the broker', async () => {
    const bars = await dispatch('candles.get', { instrumentToken: app.token('INFY'), interval: '5minute' });
    expect(bars.ok).toBe(true);
    const fired: PriceAlert[] = [];
    app.services.events.on('alerts.fired', (a) => fired.push(a));
    const created = await dispatch('alerts.create', {
      instrumentToken: app.token('INFY'),
      condition: 'crosses_down',
      basis: { kind: 'vwap', interval: '5minute' },
    });
    expect(created).toMatchObject({ ok: true, data: { basis: { kind: 'vwap' }, price: null, state: 'active' } });
    const closes = (bars.ok ? (bars.data as Array<{ close: number }>) : []).map((b) => b.close);
    const far = Math.max(...closes) * 1.2;
    const low = Math.min(...closes) * 0.8;
    // Up through it first (no fire), then down through it once its bars are read.
    await vi.waitFor(
      () => {
        app.setPrice('INFY', far);
        app.setPrice('INFY', low);
        expect(fired).toHaveLength(1);
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(fired[0]).toMatchObject({ condition: 'crosses_down', triggeredPrice: low });
  });
});
