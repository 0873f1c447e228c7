import { describe, expect, it } from 'vitest';
import type { Holding } from '@shared/domain/portfolio';
import { IRFC_BOUGHT_TODAY, positionOf } from '@shared/testing/portfolio-fixtures';
import { markHolding, markPosition } from './position-pnl';

/** A day's position as the broker reports it; tests override what they are about. */
const position = positionOf;

describe('markPosition', () => {
  // 1,000 at 100 and 2,000 at 100.05: the average 100.0333… reaches the wire rounded.
  const bought = IRFC_BOUGHT_TODAY;

  it('shows the same exact P&L at LTP 101 whether the price came from a tick or the last poll', () => {
    expect(markPosition(bought, 101)).toEqual({ ltp: 101, pnl: 2900, unrealised: 2900, m2m: 2900 });
    expect(markPosition(bought, undefined)).toEqual({ ltp: 101, pnl: 2900, unrealised: 2900, m2m: 2900 });
    expect(markPosition(bought, 101.05).pnl).toBe(3050);
  });

  it("counts a carried NRML position's day P&L from the previous close, its total from cost", () => {
    const carried = position({
      product: 'NRML',
      quantity: 75,
      overnightQuantity: 75,
      averagePrice: 26000,
      closePrice: 26100,
      lastPrice: 26100,
      buyQuantity: 75,
      buyValue: 19_50_000,
    });
    expect(markPosition(carried, 26150)).toMatchObject({ pnl: 11_250, m2m: 3750 });
  });

  it('values an MCX contract by its multiplier: GOLD up ₹10 is ₹1,000 on one lot', () => {
    const gold = position({
      exchange: 'MCX',
      product: 'NRML',
      quantity: 1,
      multiplier: 100,
      averagePrice: 121500,
      lastPrice: 121500,
      buyQuantity: 1,
      buyValue: 1_21_50_000,
      dayBuyQuantity: 1,
      dayBuyValue: 1_21_50_000,
    });
    expect(markPosition(gold, 121510)).toMatchObject({ pnl: 1000, m2m: 1000 });
  });

  it('keeps realised P&L out of the unrealised figure after a partial exit', () => {
    const partly = position({
      quantity: 6,
      averagePrice: 100,
      lastPrice: 110,
      buyQuantity: 10,
      buyValue: 1000,
      sellQuantity: 4,
      sellValue: 440,
      realisedPnl: 40,
    });
    expect(markPosition(partly, 112)).toMatchObject({ pnl: 112, unrealised: 72 });
  });
});

describe('markHolding', () => {
  const holding: Holding = {
    exchange: 'NSE',
    tradingsymbol: 'IRFC',
    instrumentToken: 1,
    quantity: 3000,
    averagePrice: 100.0333,
    lastPrice: 101,
    pnl: 2900,
  };

  it("moves the broker's exact P&L with the tick instead of re-marking the rounded average", () => {
    expect(markHolding(holding, 101)).toEqual({ ltp: 101, value: 3_03_000, pnl: 2900 });
    expect(markHolding(holding, 101.05)).toEqual({ ltp: 101.05, value: 3_03_150, pnl: 3050 });
    expect(markHolding(holding, undefined).pnl).toBe(2900);
  });
});
