import { describe, expect, it } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import { evaluateGtt, ocoForPosition } from './gtt-model';

const INFY = {
  instrumentToken: 1,
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  name: 'Infosys',
  instrumentType: 'EQ',
  segment: 'NSE',
  lotSize: 1,
  tickSize: 0.05,
  freezeQuantity: 100_000,
  expiry: null,
  strike: null,
} as unknown as Instrument;

describe('the GTT form model', () => {
  it('a long position offers an OCO that sells its quantity, stop-loss 2% below and target 2% above, on the tick', () => {
    const f = ocoForPosition({ quantity: 10, product: 'CNC' }, 1501.3, 0.05);
    expect(f).toMatchObject({ type: 'oco', side: 'SELL', quantity: '10', product: 'CNC' });
    expect(Number(f.trigger)).toBe(1471.25);
    expect(Number(f.targetTrigger)).toBe(1531.35);
    expect(evaluateGtt(f, INFY, 1501.3).errors).toEqual({});
  });

  it('a short position offers an OCO that buys it back', () => {
    expect(ocoForPosition({ quantity: -3, product: 'MIS' }, 1500, 0.05)).toMatchObject({ side: 'BUY', quantity: '3' });
  });

  it('an OCO typed the wrong way round shows each trigger’s refusal on its own field', () => {
    const f = {
      ...ocoForPosition({ quantity: 1, product: 'MIS' }, 1500, 0.05),
      trigger: '1510',
      targetTrigger: '1490',
    };
    const { errors } = evaluateGtt(f, INFY, 1500);
    expect(errors.trigger).toMatch(/must be below the last price/);
    expect(errors.targetTrigger).toMatch(/must be above the last price/);
  });

  it('an off-tick limit price and an empty quantity are shown on those fields', () => {
    const f = { ...ocoForPosition({ quantity: 1, product: 'MIS' }, 1500, 0.05), price: '1470.03', quantity: '' };
    const { errors } = evaluateGtt(f, INFY, 1500);
    expect(errors.price).toMatch(/off the ₹0\.05 tick/);
    expect(errors.quantity).toBeDefined();
  });
});
