import { describe, expect, it } from 'vitest';
import { cadenceMs, type DeskState, type PolledRead } from './cadence';

/** The cadence table as a trader's broker would feel it. */

const READS: readonly PolledRead[] = ['orders', 'positions', 'funds', 'holdings'];
const QUIET: DeskState = { streamLive: true, workingOrders: false, unconfirmed: false, ticketOpen: true };

/** Requests per second the four reads cost in a state (what the broker's budget sees). */
const perSecond = (s: DeskState): number => READS.reduce((sum, r) => sum + 1_000 / cadenceMs(r, s), 0);

describe('cadenceMs', () => {
  it('with the stream live and nothing working, reconciles orders, positions and funds every 30 s and holdings every 2 min, ticket open or not', () => {
    for (const ticketOpen of [true, false]) {
      const s = { ...QUIET, ticketOpen };
      expect(READS.map((r) => cadenceMs(r, s))).toEqual([30_000, 30_000, 30_000, 120_000]);
    }
  });

  it('an idle desk with the stream live spends under 0.2 requests/s of the broker’s budget (today: 4)', () => {
    expect(perSecond(QUIET)).toBeLessThan(0.2);
  });

  it('reads orders every 2 s while an order works or a placement is unconfirmed, and only orders', () => {
    for (const s of [
      { ...QUIET, workingOrders: true },
      { ...QUIET, unconfirmed: true },
    ]) {
      expect(READS.map((r) => cadenceMs(r, s))).toEqual([2_000, 30_000, 30_000, 120_000]);
      expect(perSecond(s)).toBeLessThan(1.5);
    }
  });

  it('without a live stream polls as fast as before: every second while anything moves or the ticket is open, else every 5 s', () => {
    const down = { ...QUIET, streamLive: false };
    expect(READS.map((r) => cadenceMs(r, down))).toEqual([1_000, 1_000, 1_000, 1_000]);
    expect(READS.map((r) => cadenceMs(r, { ...down, ticketOpen: false }))).toEqual([5_000, 5_000, 5_000, 5_000]);
    expect(cadenceMs('funds', { ...down, ticketOpen: false, workingOrders: true })).toBe(1_000);
    expect(cadenceMs('orders', { ...down, ticketOpen: false, unconfirmed: true })).toBe(1_000);
  });
});
