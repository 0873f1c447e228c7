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
