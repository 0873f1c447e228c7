import { describe, expect, it, vi } from 'vitest';
import type { Bracket, BracketPlaced } from '@shared/domain/bracket';
import { useAppOnPaper } from './testing/app-on-paper';
import { infyBracket, infyProtect } from '../core/testing/bracket-requests';

/**
 * Brackets and trailing stops over the bridge (docs/brackets.md): a trailing stop moves from the
 * stream with no window subscribed to its instrument — main watches it as its own — and every
 * change reaches the page as `brackets.changed`; volume at price is answered from main's memory.
 * The same `requestId` sent twice at once (two windows, a repeated frame) makes one bracket, and
 * a protect over what is held is refused naming `quantity` (docs/brackets.md §Risk).
 */
describe('brackets over the bridge', () => {
  const app = useAppOnPaper({ name: 'brackets', prices: { INFY: 1500 } });
  const { dispatch } = app;

  it('a trailing stop moves with ticks no window asked for, each change pushed as brackets.changed; cancel ends it', async () => {
    const pushed: Bracket[][] = [];
    const off = app.services.events.on('brackets.changed', (e) => pushed.push(e.brackets));
    const request = infyBracket(2, { stop: 1450, target: null, trail: { by: 'percent', amount: 1 } });
    const placed = await dispatch('brackets.place', { request, requestId: 'rq-bracket-bridge-1' });
    expect(placed).toMatchObject({ ok: true, data: { entry: { state: 'placed' } } });
    if (!placed.ok) return;
    const id = (placed.data as BracketPlaced).bracket.id;
    const latest = (): Bracket | undefined => pushed.at(-1)?.find((b) => b.id === id);
    await vi.waitFor(() => expect(latest()?.stop?.status).toBe('working'), { timeout: 10_000 });
    app.setPrice('INFY', 1600);
    // 1% behind 1,600 is 1,584: the stop follows from main's own subscription.
    await vi.waitFor(() => expect(latest()?.stop?.order.triggerPrice).toBe(1584), { timeout: 10_000 });
    expect(latest()?.trailMoves).toBeGreaterThan(0);

    // The same click again (a lost reply): the same bracket, no second one.
    const again = await dispatch('brackets.place', { request, requestId: 'rq-bracket-bridge-1' });
    expect(again).toMatchObject({ ok: true, data: { bracket: { id } } });
    const listed = await dispatch('brackets.list', undefined);
    expect(listed.ok && (listed.data as Bracket[]).map((b) => b.id)).toEqual([id]);

    const volume = await dispatch('market.volumeAtPrice', { instrumentToken: app.token('INFY') });
    expect(volume).toMatchObject({ ok: true, data: { since: expect.any(Number) } });

    const cancelled = await dispatch('brackets.cancel', { id });
    expect(cancelled.ok).toBe(true);
    await vi.waitFor(() => expect(latest()?.phase).toBe('done'), { timeout: 10_000 });
    expect(latest()?.outcome).toBe('Cancelled by you');
    off();
  });

  it('the same requestId twice at once makes one bracket with one stop-loss and one target; both get its answer', async () => {
    const request = infyBracket(10, { stop: 1550, target: 1650 });
    const [a, b] = await Promise.all([
      dispatch('brackets.place', { request, requestId: 'rq-twice-at-once-1' }),
      dispatch('brackets.place', { request, requestId: 'rq-twice-at-once-1' }),
    ]);
    expect([a, b].map((r) => (r.ok ? 'ok' : r.error.message))).toEqual(['ok', 'ok']);
    if (!a.ok || !b.ok) return;
    const id = (a.data as BracketPlaced).bracket.id;
    expect((b.data as BracketPlaced).bracket.id).toBe(id);
    const get = async (): Promise<Bracket | undefined> => {
      const listed = await dispatch('brackets.list', undefined);
      return listed.ok ? (listed.data as Bracket[]).find((x) => x.id === id) : undefined;
    };
    await vi.waitFor(
      async () => expect([(await get())?.stop?.status, (await get())?.target?.status]).toEqual(['working', 'working']),
      { timeout: 10_000 },
    );
    const listed = await dispatch('brackets.list', undefined);
    expect(listed.ok && (listed.data as Bracket[]).filter((x) => x.phase !== 'done').map((x) => x.id)).toEqual([id]);
    const orders = await dispatch('orders.list', undefined);
    const sells = orders.ok
      ? (orders.data as Array<{ transactionType: string; status: string }>).filter(
          (o) => o.transactionType === 'SELL' && o.status !== 'CANCELLED',
        )
      : [];
    expect(sells).toHaveLength(2);

    // Protecting more than is held (12 long) is refused, naming the field.
    const over = await dispatch('brackets.place', {
      request: infyProtect(1000, { stop: 1550, target: 1650 }),
      requestId: 'rq-protect-over-1',
    });
    expect(over).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'quantity' } });
  });
});
