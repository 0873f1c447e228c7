import { describe, expect, it } from 'vitest';
import { chargeSegment, daySummary, estimateCharges, type ChargeableFill } from './charges';

/** A fill of `quantity` at `price`; equities on NSE, order id `o1`, unless overridden. */
function fill(over: Partial<ChargeableFill>): ChargeableFill {
  return {
    orderId: 'o1',
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    transactionType: 'BUY',
    product: 'MIS',
    quantity: 100,
    price: 1500,
    multiplier: 1,
    ...over,
  };
}

describe('chargeSegment', () => {
  it.each([
    [{ exchange: 'NSE', tradingsymbol: 'INFY', product: 'MIS' }, 'equity-intraday'],
    [{ exchange: 'BSE', tradingsymbol: 'INFY', product: 'CNC' }, 'equity-delivery'],
    [{ exchange: 'NFO', tradingsymbol: 'NIFTY26NOVFUT', product: 'NRML' }, 'equity-futures'],
    [{ exchange: 'NFO', tradingsymbol: 'NIFTY26NOV24500CE', product: 'MIS' }, 'equity-options'],
    [{ exchange: 'BFO', tradingsymbol: 'SENSEX26NOV80000PE', product: 'NRML' }, 'equity-options'],
    [{ exchange: 'MCX', tradingsymbol: 'GOLD26DECFUT', product: 'NRML' }, 'commodity-futures'],
    [{ exchange: 'CDS', tradingsymbol: 'USDINR26NOVFUT', product: 'NRML' }, 'currency-futures'],
  ] as const)('%o is charged as %s', (f, segment) => {
    expect(chargeSegment(f)).toBe(segment);
  });
});

describe('estimateCharges', () => {
  it('an NSE intraday round trip of 100 INFY, bought at 1,500 and sold at 1,510, costs ₹100.35', () => {
    // Hand-worked from the rate card in docs/desk.md §Charges model: brokerage ₹20 + ₹20 (0.03%
    // of ₹1.5 lakh is ₹45, capped), STT ₹37.75 on the sell, exchange ₹8.94, SEBI ₹0.30, GST
    // ₹8.86, stamp ₹4.50 on the buy.
    const c = estimateCharges([
      fill({ orderId: 'b', transactionType: 'BUY', price: 1500 }),
      fill({ orderId: 's', transactionType: 'SELL', price: 1510 }),
    ]);
    expect(c.brokerage).toBe(40);
    expect(c.stt).toBeCloseTo(37.75, 2);
    expect(c.stamp).toBeCloseTo(4.5, 2);
    expect(c.total).toBeCloseTo(100.35, 2);
  });

  it('an order filled in three parts pays brokerage once, the same as one fill of its size', () => {
    const parts = estimateCharges([
      fill({ quantity: 20, price: 100 }),
      fill({ quantity: 30, price: 100 }),
      fill({ quantity: 50, price: 100 }),
    ]);
    const whole = estimateCharges([fill({ quantity: 100, price: 100 })]);
    expect(parts.brokerage).toBeCloseTo(3, 6); // 0.03% of ₹10,000, under the ₹20 cap
    expect(parts.total).toBeCloseTo(whole.total, 6);
  });

  it('delivery pays no brokerage but STT on both sides; intraday pays STT on the sell only', () => {
    const delivery = estimateCharges([fill({ product: 'CNC', transactionType: 'BUY' })]);
    const intradayBuy = estimateCharges([fill({ product: 'MIS', transactionType: 'BUY' })]);
    expect(delivery.brokerage).toBe(0);
    expect(delivery.stt).toBeCloseTo(150, 6); // 0.1% of ₹1.5 lakh
    expect(intradayBuy.stt).toBe(0);
  });

  it('an option order pays a flat ₹20 whatever its premium, and STT on the sold premium', () => {
    const cheap = estimateCharges([
      fill({ exchange: 'NFO', tradingsymbol: 'NIFTY26NOV24500CE', transactionType: 'SELL', quantity: 75, price: 2 }),
    ]);
    expect(cheap.brokerage).toBe(20);
    expect(cheap.stt).toBeCloseTo(0.15, 6); // 0.1% of ₹150 of premium
  });

  it('an MCX contract is charged on its rupee value (price × quantity × multiplier)', () => {
    const one = estimateCharges([
      fill({
        exchange: 'MCX',
        tradingsymbol: 'GOLD26DECFUT',
        product: 'NRML',
        quantity: 1,
        price: 76_000,
        multiplier: 100,
      }),
    ]);
    expect(one.brokerage).toBe(20); // 0.03% of ₹76 lakh is ₹2,280: capped
    expect(one.exchange).toBeCloseTo(159.6, 6); // 0.0021% of ₹76 lakh
  });

  it('no fills cost nothing', () => {
    expect(estimateCharges([]).total).toBe(0);
  });
});

describe('daySummary', () => {
  it('adds both sides to turnover, counts orders once, and nets the charges off the realised P&L', () => {
    const s = daySummary(
      [
        fill({ orderId: 'b', transactionType: 'BUY', price: 1500 }),
        fill({ orderId: 's', transactionType: 'SELL', quantity: 40, price: 1510 }),
        fill({ orderId: 's', transactionType: 'SELL', quantity: 60, price: 1510 }),
      ],
      1000,
    );
    expect(s.turnover).toBe(3_01_000);
    expect(s.fills).toBe(3);
    expect(s.orders).toBe(2);
    expect(s.netRealised).toBeCloseTo(1000 - 100.35, 2);
  });
});
