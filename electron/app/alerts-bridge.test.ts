import { describe, expect, it, vi } from 'vitest';
import type { PriceAlert } from '@shared/domain/alert';
import { useAppOnPaper } from './testing/app-on-paper';

/**
 * Price alerts through the dispatcher against a paper broker whose prices move only when the test
 * moves them: main watches the alert's instrument itself and fires from the stream with no window
 * subscribed to anything (docs/contract.md §Price alerts).
 */
describe('price alerts over the bridge', () => {
  /** What main handed to the OS notifier (the Electron layer's `Notification` in the app). */
  const osShown: PriceAlert[] = [];

  const app = useAppOnPaper({
    name: 'alerts',
    prices: { INFY: 1500 },
    config: { notifyOs: (a) => osShown.push(a) },
  });
  const { dispatch } = app;

  it('fires "above" once from the stream with no window watching, and is kept triggered', async () => {
    const fired: PriceAlert[] = [];
    const off = app.services.events.on('alerts.fired', (a) => fired.push(a));
    const created = await dispatch('alerts.create', {
      instrumentToken: app.token('INFY'),
      condition: 'above',
      price: 1510,
    });
    expect(created).toMatchObject({ ok: true, data: { tradingsymbol: 'INFY', state: 'active' } });
    app.setPrice('INFY', 1505);
    app.setPrice('INFY', 1512);
    await vi.waitFor(() => expect(fired).toHaveLength(1), { timeout: 10_000 });
    expect(fired[0]).toMatchObject({ condition: 'above', price: 1510, state: 'triggered', triggeredPrice: 1512 });
    // Stamped on the market's clock (the tick's), as the blotter's times are, not the machine's
    // (docs/desk.md §One clock): the paper market's simulated session runs hours apart from it.
    expect(Math.abs(fired[0]!.triggeredAt! - app.paper.marketNow())).toBeLessThan(10_000);
    // A later tick still above: a second alert shows it was evaluated, and the first did not fire again.
    const witness = await dispatch('alerts.create', {
      instrumentToken: app.token('INFY'),
      condition: 'above',
      price: 1515,
    });
    app.setPrice('INFY', 1520);
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
    const off = app.services.events.on('alerts.fired', (a) => fired.push(a));
    const edited = await dispatch('alerts.update', { id: alert!.id, change: { condition: 'crosses', price: 1490 } });
    expect(edited).toMatchObject({ ok: true, data: { state: 'active', condition: 'crosses', price: 1490 } });
    app.setPrice('INFY', 1495);
    app.setPrice('INFY', 1485);
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
      instrumentToken: app.token('INFY'),
      condition: 'below',
      price: 1400,
      note: 'add more',
    });
    expect(created.ok).toBe(true);
    await app.restart();
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
    app.setPrice('INFY', 1500);
    const loud = await dispatch('alerts.create', {
      instrumentToken: app.token('INFY'),
      condition: 'above',
      price: 1530,
      notify: { os: true, sound: true },
    });
    const quiet = await dispatch('alerts.create', {
      instrumentToken: app.token('INFY'),
      condition: 'above',
      price: 1529,
    });
    expect(loud).toMatchObject({ ok: true, data: { notify: { os: true, sound: true } } });
    expect(quiet).toMatchObject({ ok: true, data: { notify: { os: false, sound: false } } });
    const fired: PriceAlert[] = [];
    const off = app.services.events.on('alerts.fired', (a) => fired.push(a));
    osShown.length = 0;
    app.setPrice('INFY', 1535);
    await vi.waitFor(() => expect(fired).toHaveLength(2), { timeout: 10_000 });
    off();
    expect(osShown.map((a) => a.price)).toEqual([1530]);

    const id = (quiet as { data: PriceAlert }).data.id;
    const edited = await dispatch('alerts.update', {
      id,
      change: { condition: 'below', price: 1400, notify: { os: true, sound: false } },
    });
    expect(edited).toMatchObject({ ok: true, data: { notify: { os: true, sound: false }, state: 'active' } });
    await app.restart();
    const kept = ((await dispatch('alerts.list', undefined)) as { data: PriceAlert[] }).data;
    expect(kept.find((a) => a.id === id)?.notify).toEqual({ os: true, sound: false });
    const bad = await dispatch('alerts.update', {
      id,
      change: { condition: 'below', price: 1400, notify: { os: 'yes' } },
    });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'bad_request', field: expect.stringMatching(/notify/) } });
  });
});
