import { describe, expect, it } from 'vitest';
import type { ExchangeSession, MarketStatus } from '@shared/domain/market';
import { describeSession, msToNextChange, rereadDelay } from './session-model';

const NSE_OPEN: ExchangeSession = {
  exchange: 'NSE',
  phase: 'open',
  detail: null,
  nextPreOpen: '2026-11-25T09:00:00+05:30',
  nextOpen: '2026-11-25T09:15:00+05:30',
  nextClose: '2026-11-23T15:30:00+05:30',
};
const NSE_CLOSED: ExchangeSession = {
  exchange: 'NSE',
  phase: 'closed',
  detail: 'After hours',
  nextPreOpen: '2026-11-25T09:00:00+05:30',
  nextOpen: '2026-11-25T09:15:00+05:30',
  nextClose: '2026-11-25T15:30:00+05:30',
};

const status = (now: string, speed: number, exchanges: ExchangeSession[]): MarketStatus => ({
  now,
  simulated: true,
  speed,
  exchanges,
});

describe('describeSession', () => {
  it('says when an open exchange closes, in IST', () => {
    expect(describeSession(NSE_OPEN, '2026-11-23T10:41:27+05:30')).toBe('open · closes 15:30');
  });

  it('says why a closed exchange is closed and names the day it opens when that is not today', () => {
    expect(describeSession(NSE_CLOSED, '2026-11-23T20:00:00+05:30')).toBe(
      'closed (After hours) · opens 09:15 Wed 25 Nov',
    );
  });

  it('reads the IST day whatever the offset a time was written in', () => {
    expect(describeSession(NSE_OPEN, '2026-11-23T05:11:27Z')).toBe('open · closes 15:30');
  });
});

describe('rereadDelay', () => {
  it('reads the sessions again just after the next change, in real time at the market clock’s speed', () => {
    const at1x = status('2026-11-23T15:29:50+05:30', 1, [NSE_OPEN]);
    expect(msToNextChange(at1x)).toBe(10_000);
    expect(rereadDelay(at1x)).toBe(11_000);
    const at60x = status('2026-11-23T15:20:00+05:30', 60, [NSE_OPEN]);
    expect(msToNextChange(at60x)).toBe(10_000);
  });

  it('reads at least once a minute, whenever the next change is due', () => {
    expect(rereadDelay(status('2026-11-23T10:00:00+05:30', 1, [NSE_OPEN]))).toBe(60_000);
    expect(rereadDelay(status('2026-11-23T15:30:00+05:30', 1, [NSE_CLOSED]))).toBe(60_000);
    expect(rereadDelay(undefined)).toBe(60_000);
  });
});
