import type { MtmAmount, MtmLevel, MtmSettings, MtmStatus } from '../domain/mtm';
import type { Order } from '../domain/order';
import type { Position } from '../domain/portfolio';
import type { SafetyRun } from '../domain/safety-run';
import { toIstIso } from '../lib/ist-time';
import { estimateCharges, type ChargeableFill } from './charges';
import { rupees } from './risk-rules';

/**
 * The MTM stop and target's rules, pure (docs/contract.md §Risk guard, "MTM stop and target"):
 * the day's mark to market of the positions, the levels in rupees, whether a tick breaches one,
 * and what the header says after the run.
 */

/** What the day's MTM needs of a position: its day's values, what it carried in, and its price now. */
export type MtmRow = Pick<
  Position,
  | 'quantity'
  | 'overnightQuantity'
  | 'closePrice'
  | 'lastPrice'
  | 'multiplier'
  | 'dayBuyValue'
  | 'daySellValue'
  | 'realisedPnl'
>;

/** The day's MTM, split as the broker splits it. */
export interface DayMtm {
  /** Realised + unrealised, rupees. */
  readonly mtm: number;
  /** The realised part as the broker reports it. */
  readonly realised: number;
  /** The rest: what the open quantities make at their prices now. */
  readonly unrealised: number;
}

/**
 * One position's day P&L at `lastPrice`: the day's sells less its buys (rupee values, the
 * multiplier already in them), plus the open quantity marked at the price, less the carried-in
 * quantity at the previous close (a carried position's day runs from the close, as the broker's
 * m2m does; docs/api.md §Margins, positions, holdings, funds).
 */
export function positionMtm(row: MtmRow): number {
  return (
    row.daySellValue -
    row.dayBuyValue +
    (row.quantity * row.lastPrice - row.overnightQuantity * row.closePrice) * row.multiplier
  );
}

/** The account's day MTM over positions priced now. */
export function dayMtm(rows: readonly MtmRow[]): DayMtm {
  let mtm = 0;
  let realised = 0;
  for (const r of rows) {
    mtm += positionMtm(r);
    realised += r.realisedPnl;
  }
  return { mtm, realised, unrealised: mtm - realised };
}

/**
 * The day's estimated charges (docs/desk.md §Charges model) from the orders' fills: each filled
 * order at its average price, with its instrument's multiplier (1 when not known: equities).
 */
export function dayCharges(
  orders: readonly Pick<
    Order,
    'orderId' | 'exchange' | 'tradingsymbol' | 'transactionType' | 'product' | 'filledQuantity' | 'averagePrice'
  >[],
  multiplierOf: (o: Pick<Order, 'exchange' | 'tradingsymbol'>) => number,
): number {
  const fills: ChargeableFill[] = orders
    .filter((o) => o.filledQuantity > 0 && o.averagePrice > 0)
    .map((o) => ({
      orderId: o.orderId,
      exchange: o.exchange,
      tradingsymbol: o.tradingsymbol,
      transactionType: o.transactionType,
      product: o.product,
      quantity: o.filledQuantity,
      price: o.averagePrice,
      multiplier: multiplierOf(o),
    }));
  return estimateCharges(fills).total;
}

/** The levels in rupees: a stop below zero, a target and the trail above. */
export interface MtmLevels {
  readonly stop: number | null;
  readonly target: number | null;
  readonly trail: { readonly from: number; readonly lock: number } | null;
}

function amountRupees(a: MtmAmount, openingFunds: number | null): number | null {
  if (a.unit === 'rupees') return a.value;
  return openingFunds === null || openingFunds <= 0 ? null : (openingFunds * a.value) / 100;
}

/**
 * The levels in rupees, a percentage taken of the day's opening funds. Null when a level in
 * percent cannot be resolved (the opening funds not read): the caller says so, never guesses.
 */
export function resolveLevels(settings: MtmSettings, openingFunds: number | null): MtmLevels | null {
  const stop = settings.stop ? amountRupees(settings.stop, openingFunds) : null;
  const target = settings.target ? amountRupees(settings.target, openingFunds) : null;
  const from = settings.trail ? amountRupees(settings.trail.from, openingFunds) : null;
  const lock = settings.trail ? amountRupees(settings.trail.lock, openingFunds) : null;
  if (
    (settings.stop && stop === null) ||
    (settings.target && target === null) ||
    (settings.trail && (from === null || lock === null))
  )
    return null;
  return {
    stop: stop === null ? null : -stop,
    target,
    trail: from !== null && lock !== null ? { from, lock } : null,
  };
}

/** Whether any level is set. */
export function anyLevel(settings: MtmSettings): boolean {
  return settings.stop !== null || settings.target !== null || settings.trail !== null;
}

/** A tick judged against the levels. */
export interface MtmJudgement {
  /** The day's highest MTM, this tick included. */
  readonly peak: number;
  /** The trail's floor once the peak has reached its start; null before. */
  readonly lockedAt: number | null;
  /** The level hit, if any, and the figure it is at. */
  readonly hit: { readonly level: MtmLevel; readonly levelRupees: number } | null;
}

/**
 * Judges the day's MTM against the levels. The stop is hit at or below it; the target at or
 * above it; the trail, once the peak (`peak`, the highest before this tick) has reached its start,
 * at or below its lock-in — a floor that never moves back down within the day. The stop is
 * looked at first: a loss is the one that matters most.
 */
export function judgeMtm(levels: MtmLevels, mtm: number, peak: number | null): MtmJudgement {
  const high = peak === null ? mtm : Math.max(peak, mtm);
  const lockedAt = levels.trail && high >= levels.trail.from ? levels.trail.lock : null;
  let hit: MtmJudgement['hit'] = null;
  if (levels.stop !== null && mtm <= levels.stop) hit = { level: 'stop', levelRupees: levels.stop };
  else if (lockedAt !== null && mtm <= lockedAt) hit = { level: 'trail', levelRupees: lockedAt };
  else if (levels.target !== null && mtm >= levels.target) hit = { level: 'target', levelRupees: levels.target };
  return { peak: high, lockedAt, hit };
}

/** ₹ with its sign always shown: +₹40,000 / −₹20,140. */
export function signedRupees(value: number): string {
  const r = Math.round(value);
  return r > 0 ? `+${rupees(r)}` : rupees(r);
}

const LEVEL_WORDS: Readonly<Record<MtmLevel, string>> = {
  stop: 'MTM stop',
  target: 'MTM target',
  trail: 'MTM lock-in',
};

/** HH:MM:SS in IST. */
function istClock(at: number): string {
  return toIstIso(at).slice(11, 19);
}

/**
 * What the header says once a level was hit, from the trigger and its kill switch run:
 * "Flattened at 14:02:11 by MTM stop −₹20,140"; while it runs, "Flattening…"; a run that could
 * not finish names what is still open. Null when nothing was hit.
 */
export function mtmHeadline(status: Pick<MtmStatus, 'trigger' | 'state'>, run: SafetyRun | null): string | null {
  const t = status.trigger;
  if (!t) return null;
  const by = `${LEVEL_WORDS[t.level]} ${signedRupees(t.mtm)}`;
  if (t.runId === null) {
    if (status.state === 'dismissed') return `${by} at ${istClock(t.at)}: kept open by you`;
    return `${by} at ${istClock(t.at)}: flattening in a moment unless you keep the positions`;
  }
  if (t.runId === '') return `Flattening once the run in progress ends: ${by} at ${istClock(t.at)}`;
  // Not the run at hand (main restarted since): it ran, and its result is not known here.
  if (!run || run.id !== t.runId) return `${by} at ${istClock(t.at)}: the kill switch ran — check the order book`;
  if (run.state === 'running') return `Flattening: ${by} at ${istClock(t.at)}`;
  if (run.state === 'done') return `Flattened at ${istClock(run.finishedAt ?? t.at)} by ${by}`;
  return `Not flat: ${by} at ${istClock(t.at)} — still open: ${stillOpenWords(run)}`;
}

/** What a run left open, in a few words: "RELIANCE +25, 2 orders"; positions not known, said so. */
export function stillOpenWords(run: SafetyRun): string {
  const open = run.stillOpen;
  if (!open) return 'not known — check with your broker';
  const parts = open.positions.map((p) => `${p.tradingsymbol} ${p.quantity > 0 ? '+' : ''}${p.quantity}`);
  if (open.orders.length > 0) parts.push(`${open.orders.length} order${open.orders.length === 1 ? '' : 's'}`);
  if (open.unconfirmed.length > 0) parts.push(`${open.unconfirmed.length} unconfirmed`);
  if (open.positionsUnknownSince !== null) parts.push('positions unknown — check with your broker');
  return parts.length > 0 ? parts.join(', ') : 'nothing listed';
}
