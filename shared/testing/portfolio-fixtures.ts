import type { Position } from '../domain/portfolio';

/**
 * A position as the broker reports it, flat and at zero unless the test says otherwise: tests
 * override what they are about (position P&L, the drift alarm, the strategy builder's legs).
 */
export function positionOf(p: Partial<Position>): Position {
  return {
    exchange: 'NSE',
    tradingsymbol: 'IRFC',
    instrumentToken: 1,
    product: 'MIS',
    quantity: 0,
    overnightQuantity: 0,
    multiplier: 1,
    averagePrice: 0,
    closePrice: 0,
    lastPrice: 0,
    buyQuantity: 0,
    buyValue: 0,
    sellQuantity: 0,
    sellValue: 0,
    dayBuyQuantity: 0,
    dayBuyValue: 0,
    daySellQuantity: 0,
    daySellValue: 0,
    realisedPnl: 0,
    unrealisedPnl: 0,
    pnl: 0,
    m2m: 0,
    ...p,
  };
}

/**
 * IRFC bought today, 1,000 at 100 and 2,000 at 100.05 (the average 100.0333… reaches the wire
 * rounded), marked at 101: ₹2,900 up. The position P&L and positions panel tests start from it.
 */
export const IRFC_BOUGHT_TODAY: Position = positionOf({
  quantity: 3000,
  averagePrice: 100.0333,
  lastPrice: 101,
  buyQuantity: 3000,
  buyValue: 3_00_100,
  dayBuyQuantity: 3000,
  dayBuyValue: 3_00_100,
  unrealisedPnl: 2900,
  pnl: 2900,
  m2m: 2900,
});
