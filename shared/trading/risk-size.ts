import type { TransactionType } from '../domain/order';
import { fromUnits, toUnits } from './money';
import { tickProblem } from './rules';

/**
 * Size from risk (docs/brackets.md §Size from risk): how many to trade so that a stop-loss, if hit,
 * loses no more than the trader chose to risk. The ticket applies it as the trader types; the
 * quantity it gives is an ordinary quantity the trading rules and the risk guard judge as usual.
 *
 * quantity = ⌊ budget ÷ (|entry − stop| × multiplier) ÷ lot ⌋ × lot — rounded down to a whole lot,
 * never up: the risk taken is at most the budget. Prices are compared in integer price units
 * (`money.ts`), so a stop 0.05 away is exactly one tick.
 */

/** What the trader gives. */
export interface SizeInput {
  readonly side: TransactionType;
  /** The risk: rupees, or a percentage of the available funds. */
  readonly risk: { readonly in: 'rupees' | 'percent'; readonly amount: number };
  /** The available funds (`percent` needs them); null while unknown. */
  readonly availableFunds: number | null;
  /** Where the entry fills: its limit price, or the last price for a MARKET order. */
  readonly entry: number | null;
  /** The stop-loss: a price, or a distance from the entry in rupees. */
  readonly stop: { readonly by: 'price' | 'distance'; readonly value: number };
  readonly instrument: { readonly lotSize: number; readonly tickSize: number; readonly multiplier: number };
}

/** The fields a sizing problem is shown beside. */
export type SizeField = 'risk' | 'stop' | 'entry';

/** The quantity, and the figures behind it — or why no quantity can be had. */
export type SizeResult =
  | {
      readonly ok: true;
      readonly quantity: number;
      readonly lots: number;
      /** The stop-loss price used. */
      readonly stopPrice: number;
      /** What the risk allows, in rupees. */
      readonly budget: number;
      /** What one unit loses at the stop, and what the quantity loses (≤ budget). */
      readonly perUnit: number;
      readonly atRisk: number;
    }
  | { readonly ok: false; readonly field: SizeField; readonly reason: string };

const rupees = (v: number): string =>
  `₹${v.toLocaleString('en-IN', { minimumFractionDigits: v % 1 === 0 ? 0 : 2, maximumFractionDigits: 2 })}`;

/** The quantity to trade for the risk given, rounded down to the lot; or why there is none. */
export function sizeFromRisk(i: SizeInput): SizeResult {
  const { lotSize, tickSize, multiplier } = i.instrument;
  if (!(i.risk.amount > 0)) return { ok: false, field: 'risk', reason: 'Give the risk above zero' };
  let budget = i.risk.amount;
  if (i.risk.in === 'percent') {
    if (i.risk.amount > 100) return { ok: false, field: 'risk', reason: 'A percentage of the funds is at most 100%' };
    if (i.availableFunds === null) return { ok: false, field: 'risk', reason: 'The available funds are not known yet' };
    if (!(i.availableFunds > 0))
      return { ok: false, field: 'risk', reason: `No funds available: ${rupees(i.availableFunds)}` };
    budget = Math.floor(i.availableFunds * i.risk.amount) / 100;
  }
  if (i.entry === null || !(i.entry > 0))
    return { ok: false, field: 'entry', reason: 'No entry price yet: give a price, or wait for the last price' };
  if (!(i.stop.value > 0)) return { ok: false, field: 'stop', reason: 'Give the stop-loss above zero' };
  const entry = toUnits(i.entry);
  const long = i.side === 'BUY';
  const stopUnits =
    i.stop.by === 'price'
      ? toUnits(i.stop.value)
      : long
        ? entry - toUnits(i.stop.value)
        : entry + toUnits(i.stop.value);
  const stopPrice = fromUnits(stopUnits);
  if (stopUnits <= 0) return { ok: false, field: 'stop', reason: `A stop ${rupees(i.stop.value)} away is below zero` };
  const off = tickProblem('Stop-loss', stopPrice, tickSize);
  if (off) return { ok: false, field: 'stop', reason: off };
  if (long ? stopUnits >= entry : stopUnits <= entry)
    return {
      ok: false,
      field: 'stop',
      reason: `For a ${long ? 'buy' : 'sell'} the stop-loss must be ${long ? 'below' : 'above'} the entry (${rupees(fromUnits(entry))})`,
    };
  // Per unit and per lot in price units × multiplier: integers until the last division.
  const perUnitUnits = Math.abs(entry - stopUnits) * multiplier;
  const perLot = fromUnits(perUnitUnits * lotSize);
  const lots = Math.floor(toUnits(budget) / (perUnitUnits * lotSize));
  if (lots < 1) {
    const lot = lotSize > 1 ? `one lot of ${lotSize.toLocaleString('en-IN')}` : 'one share';
    return {
      ok: false,
      field: 'risk',
      reason: `${rupees(budget)} is less than ${lot} risks at a stop ${rupees(fromUnits(Math.abs(entry - stopUnits)))} away (${rupees(perLot)}): risk more, or bring the stop closer`,
    };
  }
  const quantity = lots * lotSize;
  return {
    ok: true,
    quantity,
    lots,
    stopPrice,
    budget,
    perUnit: fromUnits(perUnitUnits),
    atRisk: fromUnits(perUnitUnits * quantity),
  };
}
