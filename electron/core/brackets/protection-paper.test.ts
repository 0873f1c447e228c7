import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BracketRequest } from '@shared/domain/bracket';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';
import { startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import { coreOn, failure, NO_KITE_LIMITS } from '../testing/dialects';
import { NOT_LISTED } from './bracket-manager';
import type { TradingCore } from '../trading-core';
import { infyBracket, infyProtect } from '../testing/bracket-requests';
import { bracketCore, bracketNow, exitsWorking } from '../testing/bracket-scenario';

/**
 * Protection is a promise about the position (docs/brackets.md §The controller), against the
 * real paper broker and its faults: exits that could not be placed during an outage are placed
 * once it ends, and the position is UNPROTECTED (never "Done") meanwhile; a manual partial exit
 * shrinks the exits so the target never reverses the position; a protect over what is held is
 * refused naming `quantity`.
 */

/** An exit refused by a 429 storm ends "not placed" quickly, so the test need not wait out a real window. */
const EXITS_RETRIED_SOON = {
  placementTimings: { resendWindowMs: 300, landingHorizonMs: 300, answerDeadlineMs: 1_000 },
} as const;

const bracketOn = (quantity: number, orderType: 'MARKET' | 'LIMIT', price?: number): BracketRequest =>
  infyBracket(quantity, { entry: { orderType, ...(price !== undefined ? { price } : {}) }, stop: 1480, target: 1530 });

/** INFY MIS held at the broker (signed). */
async function held(core: TradingCore): Promise<number> {
  const list = await core.broker.listPositions();
  return list.find((p) => p.tradingsymbol === 'INFY' && p.product === 'MIS')?.quantity ?? 0;
}

describe('protection on the paper broker', () => {
  let fx: CoreFixture;
  afterEach(async () => fx.close());

  /** A fresh paper broker with INFY at 1,500 and a core keeping brackets on its stream. */
  async function started(): Promise<{ core: TradingCore; infy: number }> {
    fx = await startCoreFixture();
    const { core, infy } = await bracketCore(fx, 'rest', EXITS_RETRIED_SOON);
    fx.paper.setPrice(infy, 1500);
    return { core, infy };
  }

  /** `started`, and a bracket on 10 bought at market, its stop-loss and target both working. */
  async function protectingTen(): Promise<{ core: TradingCore; infy: number; id: string }> {
    const { core, infy } = await started();
    const placed = await core.brackets.create(bracketOn(10, 'MARKET'));
    await exitsWorking(core, placed.bracket.id);
    return { core, infy, id: placed.bracket.id };
  }

  it('the entry fills during a 429 storm: the exits end not placed, the position is UNPROTECTED (not done), and they are placed once it ends', async () => {
    const { core, infy } = await started();
    const placed = await core.brackets.create(bracketOn(10, 'LIMIT', 1495));
    const id = placed.bracket.id;
    await vi.waitFor(() => expect(bracketNow(core, id).entry?.status).toBe('working'), { timeout: 10_000 });

    // Every request is answered 429 (main honours its Retry-After); the stream still reports the fill.
    fx.paper.setFaults({ rate_limit: 1, retry_after_s: 2 });
    fx.paper.setPrice(infy, 1494);
    await vi.waitFor(() => expect(bracketNow(core, id).entry?.filled).toBe(10), { timeout: 10_000 });
    await vi.waitFor(() => expect(bracketNow(core, id).stop?.failures ?? 0).toBeGreaterThan(0), {
      timeout: 30_000,
      interval: 50,
    });
    const during = bracketNow(core, id);
    expect(during.phase).toBe('protecting');
    expect(during.unprotected).toMatchObject({ quantity: 10 });
    expect(during.problem).toMatch(/^Stop-loss not placed: .*trying again/);

    fx.paper.setFaults({});
    await vi.waitFor(
      () => {
        const b = bracketNow(core, id);
        expect([b.stop?.status, b.target?.status, b.unprotected]).toEqual(['working', 'working', null]);
      },
      { timeout: 30_000, interval: 50 },
    );
    const orders = (await core.broker.listOrders()).filter(
      (o) => o.transactionType === 'SELL' && o.status !== 'REJECTED',
    );
    // One stop-loss and one target at the broker, each for what is held: nothing sent twice.
    expect(orders.map((o) => [o.orderType, o.quantity, o.status]).sort()).toEqual([
      ['LIMIT', 10, 'OPEN'],
      ['SL-M', 10, 'TRIGGER PENDING'],
    ]);
  }, 90_000);

  it('a manual sale of 5 of the 10 protected shrinks both exits to 5; the target then fills and the position is flat, not short', async () => {
    const { core, infy, id } = await protectingTen();

    // The trader sells 5 from the ticket: an ordinary order, not the bracket's.
    const sold = await core.orders.place({ ...INFY_MARKET_BUY, transactionType: 'SELL', quantity: 5 });
    expect(sold.state).toBe('placed');
    await vi.waitFor(
      () =>
        expect([bracketNow(core, id).stop?.order.quantity, bracketNow(core, id).target?.order.quantity]).toEqual([
          5, 5,
        ]),
      { timeout: 15_000, interval: 50 },
    );
    const exits = (await core.broker.listOrders()).filter(
      (o) => o.orderId === bracketNow(core, id).stop?.orderId || o.orderId === bracketNow(core, id).target?.orderId,
    );
    expect(exits.map((o) => o.quantity)).toEqual([5, 5]);

    fx.paper.setPrice(infy, 1535);
    await vi.waitFor(() => expect(bracketNow(core, id).phase).toBe('done'), { timeout: 10_000 });
    expect(bracketNow(core, id).outcome).toMatch(/^Target filled/);
    expect(await held(core)).toBe(0);
  });

  it('a protect larger than the position, or with nothing held, is refused naming quantity; nothing is placed', async () => {
    const { core } = await started();
    const none = await failure(core.brackets.create(infyProtect(50)));
    expect(none).toMatchObject({ kind: 'bad_request', field: 'quantity' });
    expect(none.message).toMatch(/^Nothing long is held in INFY \(MIS\) to protect/);

    const bought = await core.orders.place({ ...INFY_MARKET_BUY, quantity: 10 });
    expect(bought.state).toBe('placed');
    await vi.waitFor(async () => expect(await held(core)).toBe(10), { timeout: 10_000 });
    const over = await failure(core.brackets.create(infyProtect(1000)));
    expect(over).toMatchObject({ kind: 'bad_request', field: 'quantity' });
    expect(over.message).toMatch(/^Only 10 long is held in INFY \(MIS\): protect at most 10/);
    expect((await core.broker.listOrders()).filter((o) => o.transactionType === 'SELL')).toEqual([]);
    expect(core.brackets.list()).toEqual([]);

    const ok = await core.brackets.create(infyProtect(10));
    await exitsWorking(core, ok.bracket.id);
  });

  it('on Kite, an overnight protection whose exits the close cancelled is placed again the next day, not taken as still working', async () => {
    // The paper's market clock is this test's: Wednesday 14:00 IST, then Thursday 09:20.
    let t = Date.parse('2026-11-25T14:00:00+05:30');
    fx = await startCoreFixture({
      kiteRates: NO_KITE_LIMITS,
      clock: () => t,
      marketClock: { at: t },
      tokenTtlMs: 7 * 24 * 3600_000,
    });
    const first = await coreOn(fx, 'kite', { brackets: { everyMs: 50 } });
    const fut = (await first.catalog.list('NFO')).find((i) => /^NIFTY\d\d[A-Z]{3}FUT$/.test(i.tradingsymbol));
    if (!fut) throw new Error('no NIFTY future listed');
    fx.paper.setPrice(fut.instrumentToken, 26000);
    const lot = fut.lotSize;
    const bought = await first.orders.place({
      exchange: 'NFO',
      tradingsymbol: fut.tradingsymbol,
      transactionType: 'BUY',
      quantity: lot,
      orderType: 'MARKET',
      product: 'NRML',
      validity: 'DAY',
    });
    expect(bought.state).toBe('placed');
    const heldFut = async (core: TradingCore): Promise<number> =>
      (await core.broker.listPositions()).find((p) => p.tradingsymbol === fut.tradingsymbol && p.product === 'NRML')
        ?.quantity ?? 0;
    await vi.waitFor(async () => expect(await heldFut(first)).toBe(lot), { timeout: 10_000 });
    const placed = await first.brackets.create({
      kind: 'protect',
      exchange: 'NFO',
      tradingsymbol: fut.tradingsymbol,
      product: 'NRML',
      side: 'BUY',
      quantity: lot,
      stop: { triggerPrice: 25800 },
      target: { price: 26300 },
      trail: null,
    });
    const id = placed.bracket.id;
    await exitsWorking(first, id);
    const yesterday = first.brackets.get(id)?.stop?.orderId;
    await first.close();

    // The close cancels both DAY exits; the next morning Kite lists only that day's orders.
    t = Date.parse('2026-11-26T09:20:00+05:30');
    const next = await coreOn(fx, 'kite', { brackets: { everyMs: 50 } });
    await next.bracketRecovery();
    expect(await heldFut(next)).toBe(lot);
    await vi.waitFor(
      () => {
        const b = next.brackets.get(id);
        expect([b?.phase, b?.stop?.status, b?.target?.status]).toEqual(['protecting', 'working', 'working']);
        expect(b?.stop?.orderId).not.toBe(yesterday);
      },
      { timeout: 15_000, interval: 50 },
    );
    // The working exits are today's orders at the broker, each for what is held.
    const b = next.brackets.get(id);
    const exits = (await next.broker.listOrders()).filter(
      (o) => o.orderId === b?.stop?.orderId || o.orderId === b?.target?.orderId,
    );
    expect(
      exits.map((o) => [o.transactionType, o.quantity, o.status === 'OPEN' || o.status === 'TRIGGER PENDING']),
    ).toEqual([
      ['SELL', lot, true],
      ['SELL', lot, true],
    ]);
    // Until they were, the row said why: the broker no longer listed yesterday's.
    expect(NOT_LISTED).toMatch(/^No longer listed by the broker/);
  });

  it('a partial fill, then a gap that fills the rest and triggers the stop-loss placed for the part: never done while held without a stop', async () => {
    fx = await startCoreFixture();
    const core = await coreOn(fx, 'rest', {
      brackets: { everyMs: 50 },
      placementTimings: { resendWindowMs: 300, landingHorizonMs: 300, answerDeadlineMs: 1_000 },
    });
    // A thin book (BSE): a MARKET buy larger than all that is offered fills in part, the rest at the next price.
    const itc = await core.catalog.find('BSE', 'ITC');
    if (!itc) throw new Error('no ITC on BSE');
    const [quote] = await core.broker.getQuotes([itc.instrumentToken]);
    const last = quote?.lastPrice ?? 0;
    const offered = quote?.totalSellQuantity ?? 0;
    const quantity = offered + Math.ceil(offered / 2);
    const stop = Math.round((last * 0.98) / 0.05) * 0.05;
    const placed = await core.brackets.create({
      kind: 'entry',
      entry: {
        exchange: 'BSE',
        tradingsymbol: 'ITC',
        transactionType: 'BUY',
        quantity,
        orderType: 'MARKET',
        product: 'MIS',
        validity: 'DAY',
      },
      stop: { triggerPrice: Number(stop.toFixed(2)) },
      target: { price: Number((Math.round((last * 1.05) / 0.05) * 0.05).toFixed(2)) },
      trail: null,
    });
    const id = placed.bracket.id;
    await vi.waitFor(
      () => {
        const b = bracketNow(core, id);
        expect(b.entry?.filled).toBeGreaterThan(0);
        expect(b.entry?.filled).toBeLessThan(quantity);
        expect(b.stop?.status).toBe('working');
      },
      { timeout: 10_000 },
    );
    const part = bracketNow(core, id).entry?.filled ?? 0;
    expect(bracketNow(core, id).stop?.order.quantity).toBe(part);

    // One move below the stop: the rest of the entry fills and the stop-loss placed for the part triggers.
    fx.paper.setPrice(itc.instrumentToken, Number((stop - 1).toFixed(2)));
    const heldItc = async (): Promise<number> =>
      (await core.broker.listPositions()).find((p) => p.tradingsymbol === 'ITC' && p.product === 'MIS')?.quantity ?? 0;
    await vi.waitFor(
      async () => {
        const b = bracketNow(core, id);
        // The entry's rest filled in that move or was cancelled once the stop-loss filled.
        expect(['filled', 'cancelled']).toContain(b.entry?.status);
        const held = await heldItc();
        expect(held).toBeGreaterThanOrEqual(0);
        if (held === 0) expect(b.phase).toBe('done');
        else {
          // Still held: never "Done"; a stop-loss covering what is held, or UNPROTECTED on screen.
          expect(b.phase).toBe('protecting');
          const open = b.stop?.status === 'working' ? b.stop.order.quantity - b.stop.filled : 0;
          expect(open >= held || b.unprotected !== null).toBe(true);
        }
      },
      { timeout: 15_000, interval: 50 },
    );
    // More filled than the part the stop-loss was for: what is still held is protected again.
    await vi.waitFor(
      async () => {
        const b = bracketNow(core, id);
        const held = await heldItc();
        if (held > 0)
          expect([b.phase, (b.stop?.order.quantity ?? 0) - (b.stop?.filled ?? 0)]).toEqual(['protecting', held]);
        else expect(b.phase).toBe('done');
      },
      { timeout: 15_000, interval: 50 },
    );
  });

  it('the stop-loss fills while the stream is cut and reads are refused: once main can read, the target is cancelled and the position is never reversed', async () => {
    const { core, infy, id } = await protectingTen();
    // Main blind: the stream cut and every read answered 429.
    fx.paper.setFaults({ read_rate_limit: 1, retry_after_s: 1 });
    fx.paper.setStreamAccepting(false);
    // The price control runs matching before it returns: the stop-loss has filled at the broker.
    fx.paper.setPrice(infy, 1475);
    expect(bracketNow(core, id).phase).toBe('protecting');
    // Main can read again: the first read that shows the stop's fill cancels the target.
    fx.paper.setFaults({});
    fx.paper.setStreamAccepting(true);
    await vi.waitFor(() => expect(bracketNow(core, id).phase).toBe('done'), { timeout: 20_000, interval: 50 });
    expect(bracketNow(core, id).outcome).toMatch(/^Stop-loss filled/);
    expect(bracketNow(core, id).target?.status).toBe('cancelled');
    fx.paper.setPrice(infy, 1535);
    expect(await held(core)).toBe(0);
  });

  it('the kill switch cancelling every order and exiting is the trader saying no more: the bracket stands down, nothing is placed again', async () => {
    const { core, id } = await protectingTen();
    core.safety.start({ kind: 'killSwitch', exitPositions: true });
    await core.safety.idle();
    await vi.waitFor(() => expect(bracketNow(core, id).phase).toBe('done'), { timeout: 10_000 });
    expect(bracketNow(core, id).outcome).toBe('Cancelled by you');
    expect(core.safety.current()?.state).toBe('done');
    expect(await held(core)).toBe(0);
    const working = (await core.broker.listOrders()).filter(
      (o) => o.status === 'OPEN' || o.status === 'TRIGGER PENDING',
    );
    expect(working).toEqual([]);
  });
});
