import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PriceAlert } from '@shared/domain/alert';
import { startPaperBroker, type PaperBroker } from '../paper';
import { createAppServices, type AppServices } from './app-services';
import { createDispatcher, type Dispatch } from './dispatcher';

/**
 * An alert on a cross of the session's VWAP, through main's services against the paper market at
 * 11:00 IST on a trading day (its morning's bars read from the broker): it fires on the price
 * moving through the study's level, downwards only (docs/contract.md §Alerts that place orders).
 */
describe('an alert on a cross of VWAP', () => {
  let dir: string;
  let paper: PaperBroker;
  let services: AppServices;
  let dispatch: Dispatch;
  let infy = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-alert-study-'));
    // Wednesday 25 Nov 2026, 11:00 IST: the session has run since 09:15.
    const at = Date.parse('2026-11-25T11:00:00+05:30');
    paper = await startPaperBroker({ port: 0, tickIntervalMs: 0, marketClock: { at, speed: 1 } });
    services = await createAppServices({ dataDir: dir, brokerUrl: paper.url, apiKey: 'paper', apiSecret: 'paper' });
    dispatch = createDispatcher(services.handlers, () => undefined);
    const list = await dispatch('instruments.list', { exchange: 'NSE' });
    if (!list.ok) throw new Error(list.error.message);
    infy = (list.data as Array<{ instrumentToken: number; tradingsymbol: string }>).find(
      (i) => i.tradingsymbol === 'INFY',
    )!.instrumentToken;
  });
  afterAll(async () => {
    await services.close();
    await paper.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('fires when the price crosses below the session VWAP of the bars main read from the broker', async () => {
    const bars = await dispatch('candles.get', { instrumentToken: infy, interval: '5minute' });
    expect(bars.ok).toBe(true);
    const fired: PriceAlert[] = [];
    services.events.on('alerts.fired', (a) => fired.push(a));
    const created = await dispatch('alerts.create', {
      instrumentToken: infy,
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
        paper.setPrice(infy, far);
        paper.setPrice(infy, low);
        expect(fired).toHaveLength(1);
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(fired[0]).toMatchObject({ condition: 'crosses_down', triggeredPrice: low });
  });
});
