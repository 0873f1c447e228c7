import { z } from 'zod';
import { Exchange } from './instrument';
import { CandleInterval } from './market';
import { OrderRequest } from './order';

/**
 * Price alerts (docs/contract.md §Price alerts): kept and evaluated by main from the stream, so
 * they fire while the window is hidden; the renderer lists, edits and shows them. An alert may
 * carry orders, placed by main when it fires (docs/contract.md §Alerts that place orders).
 */

/**
 * `above`: the value is at or above the level; `below`: at or below; `crosses`: it moved through
 * the level either way; `crosses_up` / `crosses_down`: through it upwards / downwards only.
 */
export const AlertCondition = z.enum(['above', 'below', 'crosses', 'crosses_up', 'crosses_down']);
export type AlertCondition = z.infer<typeof AlertCondition>;

/** The conditions in the trader's words. */
export const CONDITION_WORDS: Readonly<Record<AlertCondition, string>> = {
  above: 'above',
  below: 'below',
  crosses: 'crosses',
  crosses_up: 'crosses above',
  crosses_down: 'crosses below',
};

/** The conditions that need a move through the level (a study's level moves, so only these apply). */
export const CROSS_CONDITIONS: ReadonlySet<AlertCondition> = new Set(['crosses', 'crosses_up', 'crosses_down']);

/** The bar sizes a study alert may read: the intraday ones (a day bar has no cross within the day). */
export const StudyInterval = CandleInterval.exclude(['day']);
export type StudyInterval = z.infer<typeof StudyInterval>;

/**
 * What an alert watches (docs/contract.md §Alerts that place orders): `price` — the LTP against
 * the alert's `price`; `vwap` / `ema` — the LTP against that study of the instrument's bars of
 * `interval`, as the chart draws it (`shared/studies/`); `mtm` — the account's MTM for the day
 * (₹) against the alert's `price`, a figure that may be negative (a loss).
 */
export const AlertBasis = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('price') }),
  z.strictObject({ kind: z.literal('vwap'), interval: StudyInterval }),
  z.strictObject({ kind: z.literal('ema'), period: z.number().int().min(1).max(200), interval: StudyInterval }),
  z.strictObject({ kind: z.literal('mtm') }),
]);
export type AlertBasis = z.infer<typeof AlertBasis>;

/** The basis of alerts kept before there were others. */
export const PRICE_BASIS: AlertBasis = { kind: 'price' };

/** The most orders one alert carries (Kite's "Alert Triggers Order" takes up to 20: docs/contract.md §Alerts that place orders). */
export const MAX_ALERT_ORDERS = 20;

/**
 * How an alert notifies the trader when it fires, beyond the page's toast (docs/contract.md
 * §Alert notifications): `os` — the operating system's notification, shown by main (the Electron
 * app only); `sound` — a short tone in the page.
 */
export const AlertNotify = z.strictObject({ os: z.boolean(), sound: z.boolean() });
export type AlertNotify = z.infer<typeof AlertNotify>;

/** An alert's notifications when none were chosen (and for alerts kept before there were any). */
export const QUIET: AlertNotify = { os: false, sound: false };

/** The fields the trader sets; `AlertDraft` / `AlertChange` add the rules between them. */
const AlertFields = z.strictObject({
  /** The instrument watched; absent for an `mtm` alert (the account's). */
  instrumentToken: z.number().int().positive().optional(),
  condition: AlertCondition,
  /** The level: a price for `price`, ₹ for `mtm`; absent for a study (its level is the study's). */
  price: z.number().min(-1e9).max(1e9).optional(),
  basis: AlertBasis.optional(),
  note: z.string().max(200).optional(),
  notify: AlertNotify.optional(),
  /** Orders placed when it fires: one, or a basket of up to `MAX_ALERT_ORDERS`, buys first. */
  orders: z.array(OrderRequest).max(MAX_ALERT_ORDERS, `An alert carries at most ${MAX_ALERT_ORDERS} orders`).optional(),
});

/** Each rule between the fields, naming the field at fault. */
function checkFields(d: z.infer<typeof AlertFields>, ctx: z.RefinementCtx, instrumentGiven: boolean): void {
  const basis = d.basis ?? PRICE_BASIS;
  const issue = (path: string, message: string): void => ctx.addIssue({ code: 'custom', path: [path], message });
  if (basis.kind === 'mtm') {
    if (d.instrumentToken !== undefined)
      issue('instrumentToken', 'An MTM alert watches the account, not an instrument');
    if (d.price === undefined || !Number.isFinite(d.price)) issue('price', 'Enter the MTM in ₹ (a loss is negative)');
    if (d.condition !== 'above' && d.condition !== 'below') issue('condition', 'An MTM alert is above or below');
    return;
  }
  if (instrumentGiven && d.instrumentToken === undefined) issue('instrumentToken', 'Choose an instrument');
  if (basis.kind === 'price') {
    if (d.price === undefined || !(d.price > 0)) issue('price', 'Enter a price above zero');
    return;
  }
  if (d.price !== undefined) issue('price', 'A study alert has no price: its level is the study');
  if (!CROSS_CONDITIONS.has(d.condition)) issue('condition', 'A study alert fires on a cross (up, down or either)');
}

/** What the trader sets: what is watched and when it fires, how it notifies, and what it places. */
export const AlertDraft = AlertFields.superRefine((d, ctx) => checkFields(d, ctx, true));
export type AlertDraft = z.infer<typeof AlertDraft>;

/** An edit of an alert: all but its instrument. */
export const AlertChange = AlertFields.omit({ instrumentToken: true }).superRefine((d, ctx) =>
  checkFields(d, ctx, false),
);
export type AlertChange = z.infer<typeof AlertChange>;

/** One order of a fired alert, as main placed it. */
export const AlertLegOutcome = z.object({
  /** `refused`: nothing was created (the reason in `detail`); `not_sent`: an earlier leg stopped the rest. */
  state: z.enum(['placed', 'unconfirmed', 'refused', 'not_sent']),
  orderId: z.string().nullable(),
  detail: z.string().max(500),
});
export type AlertLegOutcome = z.infer<typeof AlertLegOutcome>;

/**
 * What a fired alert's orders came to: `placing` while main sends them; `placed` every one;
 * `unconfirmed` one not yet confirmed (main keeps checking, as for any order); `refused` nothing
 * created; `partial` some placed and the rest refused or not sent (said in `detail`).
 */
export const AlertOrderOutcome = z.object({
  state: z.enum(['placing', 'placed', 'unconfirmed', 'refused', 'partial']),
  detail: z.string().max(2_000),
  legs: z.array(AlertLegOutcome).max(MAX_ALERT_ORDERS),
});
export type AlertOrderOutcome = z.infer<typeof AlertOrderOutcome>;

/** An alert: `active` until its condition is met once, then `triggered` (editing it arms it again). */
export const PriceAlert = z.object({
  id: z.string().regex(/^al-[a-z0-9]{1,32}$/),
  /** Null for an `mtm` alert. */
  instrumentToken: z.number().int().positive().nullable(),
  exchange: Exchange.nullable(),
  tradingsymbol: z.string().nullable(),
  condition: AlertCondition,
  /** The level (a price, or ₹ for `mtm`); null for a study. */
  price: z.number().nullable(),
  basis: AlertBasis.default(PRICE_BASIS),
  note: z.string().nullable(),
  state: z.enum(['active', 'triggered']),
  /** Epoch ms. */
  createdAt: z.number().int().nonnegative(),
  /** When it was last armed (made or edited), epoch ms: its orders' request ids derive from it. */
  armedAt: z.number().int().nonnegative().optional(),
  triggeredAt: z.number().int().nonnegative().nullable(),
  /** The value that met the condition: the LTP, or the MTM for `mtm`. */
  triggeredPrice: z.number().nullable(),
  notify: AlertNotify.default(QUIET),
  orders: z.array(OrderRequest).max(MAX_ALERT_ORDERS).default([]),
  /** What its orders came to when it last fired; null before, or without orders. */
  outcome: AlertOrderOutcome.nullable().default(null),
});
export type PriceAlert = z.infer<typeof PriceAlert>;

/** One reading of what an alert compares: the watched value and the level. */
export interface Reading {
  readonly value: number;
  readonly level: number;
}

/**
 * True when `now` meets the condition, `previous` being the reading before it (null: none yet,
 * so no cross can be seen). Pure: the price, study and MTM alerts all come here.
 */
export function conditionMet(condition: AlertCondition, previous: Reading | null, now: Reading): boolean {
  const up = previous !== null && previous.value < previous.level && now.value >= now.level;
  const down = previous !== null && previous.value > previous.level && now.value <= now.level;
  switch (condition) {
    case 'above':
      return now.value >= now.level;
    case 'below':
      return now.value <= now.level;
    case 'crosses':
      return up || down;
    case 'crosses_up':
      return up;
    case 'crosses_down':
      return down;
  }
}

/** True when `price` meets a price alert's condition, `previous` being the last price seen before it (null: none yet). */
export function alertMet(
  alert: { readonly condition: AlertCondition; readonly price: number },
  previous: number | null,
  price: number,
): boolean {
  return conditionMet(alert.condition, previous === null ? null : { value: previous, level: alert.price }, {
    value: price,
    level: alert.price,
  });
}

/** A study's bar size in the trader's words. */
export const INTERVAL_WORDS: Readonly<Record<StudyInterval, string>> = {
  minute: '1 min',
  '5minute': '5 min',
  '15minute': '15 min',
  '60minute': '60 min',
};

/** "VWAP (5 min)", "EMA 20 (5 min)", "₹-20,000.00", "1,510.00": what an alert's value is compared with. */
export function levelWords(
  a: Pick<PriceAlert, 'price'> & { readonly basis?: AlertBasis },
  figure: (n: number) => string,
): string {
  const basis = a.basis ?? PRICE_BASIS;
  if (basis.kind === 'vwap') return `VWAP (${INTERVAL_WORDS[basis.interval]})`;
  if (basis.kind === 'ema') return `EMA ${basis.period} (${INTERVAL_WORDS[basis.interval]})`;
  return `${basis.kind === 'mtm' ? '₹' : ''}${a.price === null ? '–' : figure(a.price)}`;
}

/**
 * "INFY above 1,510.00", "INFY crosses above EMA 20 (5 min)", "MTM below ₹-20,000.00": an alert in
 * words, its figures written by `figure` (the caller's number format).
 */
export function describeAlert(
  a: Pick<PriceAlert, 'tradingsymbol' | 'condition' | 'price'> & { readonly basis?: AlertBasis },
  figure: (n: number) => string,
): string {
  const what = a.basis?.kind === 'mtm' ? 'MTM' : (a.tradingsymbol ?? '–');
  return `${what} ${CONDITION_WORDS[a.condition]} ${levelWords(a, figure)}`;
}
