import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PriceAlert } from '@shared/domain/alert';
import { createDispatcher } from './dispatcher';
import { createAppServices, type AppServices } from './app-services';
import { startPaperBroker, type PaperBroker } from '../paper';

/**
 * Price alerts through the dispatcher against a paper broker whose prices move only when the test
 * moves them: main watches the alert's instrument itself and fires from the stream with no window
 * subscribed to anything (docs/contract.md §Price alerts).
 */
describe('price alerts over the bridge', () => {
  let dir: string;
  let paper: PaperBroker;
  let services: AppServices;
  let dispatch: ReturnType<typeof createDispatcher>;
  let token = 0;
  /** What main handed to the OS notifier (the Electron layer's `Notification` in the app). */
  const osShown: PriceAlert[] = [];
  const start = () =>
    createAppServices({
      dataDir: dir,
      brokerUrl: paper.url,
      apiKey: 'paper',
      apiSecret: 'paper',
      notifyOs: (a) => osShown.push(a),
    });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-alerts-'));
    paper = await startPaperBroker({ port: 0, tickIntervalMs: 0 });
    services = await start();
    dispatch = createDispatcher(services.handlers);
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

  it('fires "above" once from the stream with no window watching, and is kept triggered', async () => {
    const fired: PriceAlert[] = [];
    const off = services.events.on('alerts.fired', (a) => fired.push(a));
    const created = await dispatch('alerts.create', { instrumentToken: token, condition: 'above', price: 1510 });
    expect(created).toMatchObject({ ok: true, data: { tradingsymbol: 'INFY', state: 'active' } });
    paper.setPrice(token, 1505);
    paper.setPrice(token, 1512);
    await vi.waitFor(() => expect(fired).toHaveLength(1), { timeout: 10_000 });
    expect(fired[0]).toMatchObject({ condition: 'above', price: 1510, state: 'triggered', triggeredPrice: 1512 });
    // Stamped on the market's clock (the tick's), as the blotter's times are, not the machine's
    // (docs/desk.md §One clock): the paper market's simulated session runs hours apart from it.
    expect(Math.abs(fired[0]!.triggeredAt! - paper.marketNow())).toBeLessThan(10_000);
    // A later tick still above: a second alert shows it was evaluated, and the first did not fire again.
    const witness = await dispatch('alerts.create', { instrumentToken: token, condition: 'above', price: 1515 });
    paper.setPrice(token, 1520);
    await vi.waitFor(() => expect(fired).toHaveLength(2), { timeout: 10_000 });
    expect(fired[1]).toMatchObject({ price: 1515, triggeredPrice: 1520 });
    off();
    const list = await dispatch('alerts.list', undefined);
    expect(list).toMatchObject({ ok: true, data: [{ state: 'triggered' }, { state: 'triggered' }] });
    if (witness.ok) await dispatch('alerts.delete', { id: (witness.data as PriceAlert).id });
  });

  it('editing arms it again; "crosses" fires when the price moves through; delete removes it', async () => {
    const listed = await dispatch('alerts.list', undefined);
    const alert = listed.ok ? (listed.data as PriceAlert[])[0] : undefined;
    const fired: PriceAlert[] = [];
    const off = services.events.on('alerts.fired', (a) => fired.push(a));
    const edited = await dispatch('alerts.update', { id: alert!.id, change: { condition: 'crosses', price: 1490 } });
    expect(edited).toMatchObject({ ok: true, data: { state: 'active', condition: 'crosses', price: 1490 } });
    paper.setPrice(token, 1495);
    paper.setPrice(token, 1485);
    await vi.waitFor(() => expect(fired.map((a) => a.triggeredPrice)).toEqual([1485]), { timeout: 10_000 });
    off();
    expect(await dispatch('alerts.delete', { id: alert!.id })).toEqual({ ok: true, data: { deleted: true } });
    expect(await dispatch('alerts.list', undefined)).toEqual({ ok: true, data: [] });
    expect(await dispatch('alerts.delete', { id: alert!.id })).toMatchObject({
      ok: false,
      error: { kind: 'not_found' },
    });
  });

  it('alerts are kept across a restart of the app, armed', async () => {
    const created = await dispatch('alerts.create', {
      instrumentToken: token,
      condition: 'below',
      price: 1400,
      note: 'add more',
    });
    expect(created.ok).toBe(true);
    await services.close();
    services = await start();
    dispatch = createDispatcher(services.handlers);
    expect(await dispatch('alerts.list', undefined)).toMatchObject({
      ok: true,
      data: [{ tradingsymbol: 'INFY', condition: 'below', price: 1400, note: 'add more', state: 'active' }],
    });
  });

  it('an instrument the broker does not quote is refused naming instrumentToken', async () => {
    const r = await dispatch('alerts.create', { instrumentToken: 999_999_999, condition: 'below', price: 10 });
    expect(r).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'instrumentToken' } });
  });

  it('hands a fired alert to the OS notifier only when it asks for one; the choice is kept and edited with the alert', async () => {
    for (const a of ((await dispatch('alerts.list', undefined)) as { data: PriceAlert[] }).data)
      await dispatch('alerts.delete', { id: a.id });
    paper.setPrice(token, 1500);
    const loud = await dispatch('alerts.create', {
      instrumentToken: token,
      condition: 'above',
      price: 1530,
      notify: { os: true, sound: true },
    });
    const quiet = await dispatch('alerts.create', { instrumentToken: token, condition: 'above', price: 1529 });
    expect(loud).toMatchObject({ ok: true, data: { notify: { os: true, sound: true } } });
    expect(quiet).toMatchObject({ ok: true, data: { notify: { os: false, sound: false } } });
    const fired: PriceAlert[] = [];
    const off = services.events.on('alerts.fired', (a) => fired.push(a));
    osShown.length = 0;
    paper.setPrice(token, 1535);
    await vi.waitFor(() => expect(fired).toHaveLength(2), { timeout: 10_000 });
    off();
    expect(osShown.map((a) => a.price)).toEqual([1530]);

    const id = (quiet as { data: PriceAlert }).data.id;
    const edited = await dispatch('alerts.update', {
      id,
      change: { condition: 'below', price: 1400, notify: { os: true, sound: false } },
    });
    expect(edited).toMatchObject({ ok: true, data: { notify: { os: true, sound: false }, state: 'active' } });
    await services.close();
    services = await start();
    dispatch = createDispatcher(services.handlers);
    const kept = ((await dispatch('alerts.list', undefined)) as { data: PriceAlert[] }).data;
    expect(kept.find((a) => a.id === id)?.notify).toEqual({ os: true, sound: false });
    const bad = await dispatch('alerts.update', {
      id,
      change: { condition: 'below', price: 1400, notify: { os: 'yes' } },
    });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'bad_request', field: expect.stringMatching(/notify/) } });
  });
});
