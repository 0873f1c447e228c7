import { describe, expect, it } from 'vitest';
import {
  bracketEdited,
  bracketFieldOf,
  EMPTY_BRACKET,
  evaluateBracket,
  exitsLeftOut,
  type BracketContext,
} from './bracket-draft';

/** The ticket's Stop-loss, target & size section as a pure judgement (docs/brackets.md §In the ticket). */

const EQ = { lotSize: 1, tickSize: 0.05, multiplier: 1 };
const FUT = { lotSize: 75, tickSize: 0.1, multiplier: 1 };
const long = (over: Partial<BracketContext> = {}): BracketContext => ({
  side: 'BUY',
  entry: 1500,
  instrument: EQ,
  availableFunds: 1_00_000,
  ...over,
});

describe('the bracket section', () => {
  it('turns distances into prices on the right side of the entry, for a long and a short', () => {
    const d = {
      ...EMPTY_BRACKET,
      on: true,
      stop: '20',
      stopBy: 'distance' as const,
      target: '45.5',
      targetBy: 'distance' as const,
    };
    const l = evaluateBracket(d, long());
    expect(l.legs).toEqual({ stop: { triggerPrice: 1480 }, target: { price: 1545.5 }, trail: null });
    const s = evaluateBracket(d, long({ side: 'SELL' }));
    expect(s.legs).toEqual({ stop: { triggerPrice: 1520 }, target: { price: 1454.5 }, trail: null });
  });

  it('names the field of each mistake: a stop above a long entry, a target off the tick, an empty trail', () => {
    const e = evaluateBracket(
      { ...EMPTY_BRACKET, on: true, stop: '1510', target: '1600.03', trailBy: 'points', trail: '' },
      long(),
    );
    expect(e.legs).toBeNull();
    expect(e.errors.stop).toMatch(/below ₹1,500/);
    expect(e.errors.target).toMatch(/tick/i);
    expect(e.errors.trail).toMatch(/how far behind/);
    expect(evaluateBracket({ ...EMPTY_BRACKET, on: true, stop: 'abc' }, long()).errors.stop).toMatch(/number/);
  });

  it('a bracket needs a stop-loss or a target; only a stop-loss can trail', () => {
    expect(evaluateBracket({ ...EMPTY_BRACKET, on: true }, long()).errors.stop).toMatch(/needs a stop-loss, a target/);
    const e = evaluateBracket({ ...EMPTY_BRACKET, on: true, target: '1550', trailBy: 'percent', trail: '1' }, long());
    expect(e.errors.trail).toMatch(/Only a stop-loss can trail/);
  });

  it('a distance with no entry price yet says so under the field', () => {
    const e = evaluateBracket({ ...EMPTY_BRACKET, stop: '10', stopBy: 'distance' }, long({ entry: null }));
    expect(e.errors.stop).toMatch(/needs an entry price/);
  });

  it('sizes from a risk in rupees, rounded down to the lot', () => {
    // ₹20 a unit × 75 = ₹1,500 a lot: ₹4,000 buys 2 lots, ₹3,000 at risk.
    const e = evaluateBracket(
      { ...EMPTY_BRACKET, stop: '20', stopBy: 'distance', risk: '4000' },
      long({ instrument: FUT }),
    );
    expect(e.size).toMatchObject({ ok: true, quantity: 150, lots: 2, atRisk: 3000, stopPrice: 1480 });
    expect(e.errors).toEqual({});
  });

  it('sizes from a percentage of the funds', () => {
    // 1% of ₹1,00,000 is ₹1,000; ₹20 a share: 50 shares.
    const e = evaluateBracket({ ...EMPTY_BRACKET, stop: '1480', risk: '1', riskIn: 'percent' }, long());
    expect(e.size).toMatchObject({ ok: true, quantity: 50, budget: 1000 });
  });

  it('a risk that cannot reach one lot says why under Risk', () => {
    const e = evaluateBracket(
      { ...EMPTY_BRACKET, stop: '20', stopBy: 'distance', risk: '1000' },
      long({ instrument: FUT }),
    );
    expect(e.size?.ok).toBe(false);
    expect(e.errors.risk).toMatch(/less than one lot of 75 risks/);
  });

  it('a risk without a stop-loss, or not a number, names the Risk field', () => {
    expect(evaluateBracket({ ...EMPTY_BRACKET, risk: '1000' }, long()).errors.risk).toMatch(/Give a stop-loss/);
    expect(evaluateBracket({ ...EMPTY_BRACKET, risk: '1k', stop: '1480' }, long()).errors.risk).toMatch(/number/);
  });

  it("reads main's refusal fields as the section's", () => {
    expect(bracketFieldOf('stop.triggerPrice')).toBe('stop');
    expect(bracketFieldOf('request.target.price')).toBe('target');
    expect(bracketFieldOf('trail.amount')).toBe('trail');
    expect(bracketFieldOf('price')).toBeNull();
    expect(bracketFieldOf(undefined)).toBeNull();
  });
});

describe('bracketEdited: filled-in exits make a bracket', () => {
  it('turns the bracket on as soon as a stop-loss or target is typed, and off when both are cleared', () => {
    const withStop = bracketEdited(EMPTY_BRACKET, { stop: '1480' });
    expect(withStop.on).toBe(true);
    expect(exitsLeftOut(withStop)).toBe(false);
    expect(bracketEdited(withStop, { stop: '' }).on).toBe(false);
  });

  it("keeps the trader's own untick, and says the exits are then left out", () => {
    const off = bracketEdited(bracketEdited(EMPTY_BRACKET, { stop: '1480' }), { on: false });
    expect(bracketEdited(off, { target: '1550' }).on).toBe(false);
    expect(exitsLeftOut(off)).toBe(true);
  });
});
