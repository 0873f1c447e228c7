import { describe, expect, it } from 'vitest';
import { noteMarketTime, onMarketClock } from './market-clock';

describe('the market clock in the page', () => {
  it('shows the app’s own times on the market’s clock, the lead measured from a tick', () => {
    const machine = Date.parse('2026-11-28T14:20:00+05:30');
    // The paper market's simulated session: its ticks say 09:18 while the machine says 14:20.
    noteMarketTime(Date.parse('2026-11-28T09:18:00+05:30'), machine);
    expect(onMarketClock(machine + 1_500)).toBe(Date.parse('2026-11-28T09:18:01.500+05:30'));
    expect(onMarketClock('2026-11-28T14:20:02+05:30')).toBe(Date.parse('2026-11-28T09:18:02+05:30'));
  });
});
