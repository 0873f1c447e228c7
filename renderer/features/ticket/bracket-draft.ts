import type { TrailSpec } from '@shared/domain/bracket';
import type { TransactionType } from '@shared/domain/order';
import { bracketProblems, type BracketField } from '@shared/trading/bracket-rules';
import { fromUnits, toUnits } from '@shared/trading/money';
import { sizeFromRisk, type SizeResult } from '@shared/trading/risk-size';
import { parseNumber } from './ticket-model';

/**
 * The ticket's Stop-loss & target section without React (docs/brackets.md §In the ticket): what
 * the trader typed → the exits a bracket asks main for, the quantity a risk allows (the shared
 * rule, `shared/trading/risk-size.ts`), and an error per field. The exits are judged by the same
 * rules main applies (`shared/trading/bracket-rules.ts`), so the ticket never offers a bracket
 * main would refuse for its prices.
 */

/** What the trader typed in the section, kept as typed. */
export interface BracketDraft {
  /**
   * Place as a bracket: main places the stop-loss and target once the entry fills. On by itself
   * as soon as a stop-loss or target is typed, until the trader sets it (`bracketEdited`).
   */
  readonly on: boolean;
  /** The trader ticked or unticked "Place as a bracket" themselves: typing exits no longer sets it. */
  readonly onChosen?: boolean;
  readonly stop: string;
  readonly stopBy: 'price' | 'distance';
  readonly target: string;
  readonly targetBy: 'price' | 'distance';
  readonly trailBy: 'none' | TrailSpec['by'];
  readonly trail: string;
  /** Size from risk: blank for none. */
  readonly risk: string;
  readonly riskIn: 'rupees' | 'percent';
}

export const EMPTY_BRACKET: BracketDraft = {
  on: false,
  stop: '',
  stopBy: 'price',
  target: '',
  targetBy: 'price',
  trailBy: 'none',
  trail: '',
  risk: '',
  riskIn: 'rupees',
};

/** Whether a stop-loss or a target is typed: the exits the trader means to have. */
export function hasExits(d: BracketDraft): boolean {
  return d.stop.trim() !== '' || d.target.trim() !== '';
}

/**
 * The section after an edit: typing a stop-loss or target makes the order a bracket (filled-in
 * exits are never dropped silently); the trader's own tick or untick of "Place as a bracket" is
 * kept from then on.
 */
export function bracketEdited(d: BracketDraft, patch: Partial<BracketDraft>): BracketDraft {
  const next = { ...d, ...patch };
  if ('on' in patch) return { ...next, onChosen: true };
  return next.onChosen ? next : { ...next, on: hasExits(next) };
}

/** Exits typed but the bracket turned off: placing sends the entry alone, so the ticket asks first. */
export function exitsLeftOut(d: BracketDraft): boolean {
  return !d.on && hasExits(d);
}

/** The section's fields an error is shown beside. */
export type BracketDraftField = 'stop' | 'target' | 'trail' | 'risk';

/** What the section makes of the draft. */
export interface BracketEvaluation {
  /** The exits to ask for, or null while one is wrong or (with the bracket on) none is given. */
  readonly legs: {
    readonly stop: { readonly triggerPrice: number } | null;
    readonly target: { readonly price: number } | null;
    readonly trail: TrailSpec | null;
  } | null;
  readonly errors: Partial<Record<BracketDraftField, string>>;
  /** The stop-loss and target as prices (a distance applied to the entry), for the trader to see. */
  readonly stopPrice: number | null;
  readonly targetPrice: number | null;
  /** Size from risk: null while no risk is typed. */
  readonly size: SizeResult | null;
}

/** What the section judges against. */
export interface BracketContext {
  readonly side: TransactionType;
  /** The entry's price (its limit, or the last price for a MARKET entry); null while unknown. */
  readonly entry: number | null;
  readonly instrument: { readonly lotSize: number; readonly tickSize: number; readonly multiplier: number } | undefined;
  readonly availableFunds: number | null;
}

const FIELD_OF: Readonly<Record<BracketField, BracketDraftField>> = {
  'stop.triggerPrice': 'stop',
  'target.price': 'target',
  'trail.amount': 'trail',
};

/** The section's field a refusal of `brackets.place` names (`request.stop.triggerPrice`…), or null. */
export function bracketFieldOf(field: string | undefined): BracketDraftField | null {
  if (!field) return null;
  const hit = (Object.keys(FIELD_OF) as BracketField[]).find((k) => field === k || field.endsWith(`.${k}`));
  if (hit) return FIELD_OF[hit];
  const head = field.replace(/^request\./, '').split('.')[0];
  return head === 'stop' || head === 'target' || head === 'trail' ? head : null;
}

/** `entry` ± a typed distance, in the direction of `away`: exact in integer price units. */
function fromDistance(entry: number, distance: number, away: 'below' | 'above'): number {
  return fromUnits(away === 'below' ? toUnits(entry) - toUnits(distance) : toUnits(entry) + toUnits(distance));
}

/** One typed price or distance: its price, or why there is none (`null` and no error when blank). */
function priceOf(
  name: 'Stop-loss' | 'Target',
  text: string,
  by: 'price' | 'distance',
  entry: number | null,
  away: 'below' | 'above',
): { price: number | null; error?: string } {
  if (text.trim() === '') return { price: null };
  const v = parseNumber(text);
  if (!(v > 0)) return { price: null, error: `${name} must be a number above zero, e.g. 12.50` };
  if (by === 'price') return { price: v };
  if (entry === null)
    return { price: null, error: `${name} distance needs an entry price: give one, or wait for the last price` };
  const p = fromDistance(entry, v, away);
  if (!(p > 0)) return { price: null, error: `${name} ${v} away from ${entry} is below zero` };
  return { price: p };
}

/** Judges the section: the exits, the quantity for the risk, an error per field. */
export function evaluateBracket(d: BracketDraft, c: BracketContext): BracketEvaluation {
  const errors: Partial<Record<BracketDraftField, string>> = {};
  const long = c.side === 'BUY';
  const stop = priceOf('Stop-loss', d.stop, d.stopBy, c.entry, long ? 'below' : 'above');
  const target = priceOf('Target', d.target, d.targetBy, c.entry, long ? 'above' : 'below');
  if (stop.error) errors.stop = stop.error;
  if (target.error) errors.target = target.error;

  let trail: TrailSpec | null = null;
  if (d.trailBy !== 'none') {
    const v = parseNumber(d.trail);
    if (d.trail.trim() === '')
      errors.trail = `Give how far behind the price the stop trails, in ${d.trailBy === 'points' ? '₹' : '%'}`;
    else if (!(v > 0)) errors.trail = 'Trail must be a number above zero, e.g. 5';
    else trail = { by: d.trailBy, amount: v };
  }

  if (c.instrument) {
    const problems = bracketProblems(
      { side: c.side, reference: c.entry, stop: stop.price, target: target.price, trail },
      c.instrument,
    );
    for (const [k, message] of Object.entries(problems) as [BracketField, string][]) errors[FIELD_OF[k]] ??= message;
  }

  let size: SizeResult | null = null;
  if (d.risk.trim() !== '') {
    const amount = parseNumber(d.risk);
    if (!(amount > 0)) errors.risk = 'Risk must be a number above zero, e.g. 1500';
    else if (d.stop.trim() === '') errors.risk = 'Give a stop-loss to size from risk';
    else if (!c.instrument) errors.risk = 'Choose an instrument to size from risk';
    else if (!errors.stop) {
      const stopValue = parseNumber(d.stop);
      size = sizeFromRisk({
        side: c.side,
        risk: { in: d.riskIn, amount },
        availableFunds: c.availableFunds,
        entry: c.entry,
        stop: { by: d.stopBy, value: stopValue },
        instrument: c.instrument,
      });
      if (!size.ok) errors[size.field === 'stop' ? 'stop' : 'risk'] ??= size.reason;
    }
  }

  if (d.on && !errors.stop && !errors.target && stop.price === null && target.price === null)
    errors.stop = 'A bracket needs a stop-loss, a target or both';
  if (d.on && trail !== null && stop.price === null) errors.trail ??= 'Only a stop-loss can trail: add one';

  const wrong = errors.stop ?? errors.target ?? errors.trail;
  const legs =
    wrong === undefined && (stop.price !== null || target.price !== null)
      ? {
          stop: stop.price === null ? null : { triggerPrice: stop.price },
          target: target.price === null ? null : { price: target.price },
          trail,
        }
      : null;
  return { legs, errors, stopPrice: stop.price, targetPrice: target.price, size };
}
