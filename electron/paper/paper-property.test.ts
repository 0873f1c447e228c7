import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Api, startTestBroker } from './test-helpers';

/**
 * The state machine under random use: sequences of place / modify / cancel / price moves never
 * break what a client relies on — quantities add up, terminal orders stay terminal, every
 * transition is in the history, and money is conserved (cash = margin used + margin free;
 * cash = opening + realised − cost of holdings).
 */

type Cmd =
  | {
      kind: 'place';
      inst: number;
      side: 'BUY' | 'SELL';
      type: 'MARKET' | 'LIMIT' | 'SL' | 'SL-M';
      lots: number;
      offset: number;
      product: 'MIS' | 'CNC' | 'NRML';
      ioc: boolean;
    }
  | { kind: 'modify'; pick: number; lots: number; offset: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'price'; inst: number; offset: number };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({
    kind: fc.constant('place' as const),
    inst: fc.integer({ min: 0, max: 1 }),
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    type: fc.constantFrom('MARKET' as const, 'LIMIT' as const, 'SL' as const, 'SL-M' as const),
    lots: fc.integer({ min: 1, max: 24 }),
    offset: fc.integer({ min: -20, max: 20 }),
    product: fc.constantFrom('MIS' as const, 'CNC' as const, 'NRML' as const),
    ioc: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('modify' as const),
    pick: fc.nat(),
    lots: fc.integer({ min: 1, max: 24 }),
    offset: fc.integer({ min: -20, max: 20 }),
  }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('price' as const),
    inst: fc.integer({ min: 0, max: 1 }),
    offset: fc.integer({ min: -30, max: 30 }),
  }),
);

interface Inst {
  instrument_token: number;
  exchange: string;
  tradingsymbol: string;
  lot_size: number;
  tick_size: number;
  last_price: number;
}

const onGrid = (p: number, tick: number): number => {
  const t = Math.round(tick * 100);
  return (Math.max(1, Math.round(Math.round(p * 100) / t)) * t) / 100;
};

async function run(api: Api, insts: Inst[], cmds: Cmd[]): Promise<void> {
  const ids: string[] = [];
  const terminal = new Map<string, string>();
  for (const c of cmds) {
    if (c.kind === 'place') {
      const i = insts[c.inst] as Inst;
      const ltp = i.last_price;
      const price = onGrid(ltp + c.offset * i.tick_size * 4, i.tick_size);
      const body: Record<string, unknown> = {
        exchange: i.exchange,
        tradingsymbol: i.tradingsymbol,
        transaction_type: c.side,
        order_type: c.type,
        quantity: c.lots * i.lot_size,
        product: c.product,
        validity: c.ioc && (c.type === 'MARKET' || c.type === 'LIMIT') ? 'IOC' : 'DAY',
      };
      if (c.type === 'LIMIT' || c.type === 'SL') body.price = price;
      if (c.type === 'SL' || c.type === 'SL-M')
        body.trigger_price =
          c.side === 'BUY' ? onGrid(price - i.tick_size, i.tick_size) : onGrid(price + i.tick_size, i.tick_size);
      const before = api.broker.orderCount();
      const r = await api.call('POST', '/orders', body);
      if (r.status === 201) ids.push(r.body.order_id);
      else {
        expect(r.status).toBe(400);
        expect(api.broker.orderCount()).toBe(before);
      }
    } else if (c.kind === 'modify' && ids.length > 0) {
      const id = ids[c.pick % ids.length] as string;
      const o = await api.order(id);
      const i = insts.find((x) => x.instrument_token === o.instrument_token) as Inst;
      const changes: Record<string, unknown> = { quantity: c.lots * i.lot_size };
      if (o.order_type === 'LIMIT') changes.price = onGrid(o.price + c.offset * i.tick_size, i.tick_size);
      const r = await api.call('PATCH', `/orders/${id}`, changes);
      expect([200, 400, 409]).toContain(r.status);
      if (terminal.has(id)) expect(r.status).toBe(409);
    } else if (c.kind === 'cancel' && ids.length > 0) {
      const id = ids[c.pick % ids.length] as string;
      const r = await api.call('DELETE', `/orders/${id}`);
      const was = terminal.get(id);
      if (was === 'COMPLETE' || was === 'REJECTED') expect(r.status).toBe(409);
      else expect(r.status).toBe(200);
    } else if (c.kind === 'price') {
      // Prices only move through setPrice here (no ticker), so the test tracks them itself.
      const i = insts[c.inst] as Inst;
      i.last_price = onGrid(i.last_price + c.offset * i.tick_size * 3, i.tick_size);
      api.broker.setPrice(i.instrument_token, i.last_price);
    }
    await checkInvariants(api, terminal);
  }
}

async function checkInvariants(api: Api, terminal: Map<string, string>): Promise<void> {
  const orders = (await api.call('GET', '/orders')).body.orders as Array<Record<string, never>>;
  const trades = (await api.call('GET', '/trades')).body.trades as Array<{ order_id: string; quantity: number }>;
  const filledByOrder = new Map<string, number>();
  for (const t of trades) filledByOrder.set(t.order_id, (filledByOrder.get(t.order_id) ?? 0) + t.quantity);
  let working = 0;
  for (const o of orders) {
    const {
      order_id: id,
      status,
      quantity,
      filled_quantity: filled,
      pending_quantity: pending,
      cancelled_quantity: cancelled,
    } = o as unknown as Record<string, never> & {
      order_id: string;
      status: string;
      quantity: number;
      filled_quantity: number;
      pending_quantity: number;
      cancelled_quantity: number;
    };
    expect(filled + pending + cancelled).toBe(quantity);
    expect(filledByOrder.get(id) ?? 0).toBe(filled);
    const was = terminal.get(id);
    if (was !== undefined) expect(status, `order ${id} left ${was}`).toBe(was);
    if (status === 'COMPLETE' || status === 'CANCELLED' || status === 'REJECTED') {
      expect(pending).toBe(0);
      terminal.set(id, status);
    } else working += 1;
  }
  const funds = (await api.call('GET', '/funds')).body.funds;
  const holdings = (await api.call('GET', '/holdings')).body.holdings as Array<{
    quantity: number;
    average_price: number;
  }>;
  const positions = (await api.call('GET', '/positions')).body.positions as Array<{ quantity: number }>;
  expect(funds.used_margin).toBeGreaterThanOrEqual(0);
  expect(Math.abs(funds.available_margin + funds.used_margin - funds.available_cash)).toBeLessThan(0.011);
  const cost = holdings.reduce((s, h) => s + h.quantity * h.average_price, 0);
  const slack = 0.01 + holdings.reduce((s, h) => s + h.quantity * 0.005, 0);
  expect(Math.abs(funds.opening_balance + funds.realised_pnl - cost - funds.available_cash)).toBeLessThanOrEqual(slack);
  if (working === 0 && positions.every((p) => p.quantity === 0)) expect(funds.used_margin).toBe(0);
}

describe('order state machine (property)', () => {
  it('keeps its invariants under random place/modify/cancel/price sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 5, maxLength: 18 }), async (cmds) => {
        const api = await startTestBroker({ startingCash: 300_000 });
        try {
          const infy = { ...(await api.instrument('NSE', 'ITC')) };
          const list = (await api.call('GET', '/instruments?exchange=NFO')).body.instruments as Array<
            Inst & { instrument_type: string; name: string }
          >;
          const opt = list.find(
            (i) => i.name === 'NIFTY' && i.instrument_type === 'CE' && i.last_price > 50 && i.last_price < 250,
          ) as Inst;
          await run(api, [{ ...infy, exchange: 'NSE', tradingsymbol: 'ITC' }, { ...opt }], cmds);
        } finally {
          await api.close();
        }
      }),
      { numRuns: 25, seed: 20261120 },
    );
  });
});
