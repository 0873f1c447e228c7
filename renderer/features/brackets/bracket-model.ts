import type { Bracket, BracketChild } from '@shared/domain/bracket';
import { protectedQuantity } from '@shared/trading/bracket-rules';
import { formatPrice, formatQty } from '../../lib/format';

/**
 * What the Brackets tab says of a bracket (docs/brackets.md §States): "Waiting for entry",
 * "Protecting 50", "Trailing at 1,512.35", "Done: Target filled at ₹1,530".
 */
export function bracketState(b: Bracket): string {
  if (b.restoring) return 'Reading back after a restart…';
  switch (b.phase) {
    case 'waiting_entry':
      return 'Waiting for entry';
    case 'protecting': {
      const trigger = b.stop?.order.triggerPrice;
      if (b.trail && b.stop?.status === 'working' && trigger) return `Trailing at ${formatPrice(trigger, b.tickSize)}`;
      if (b.unprotected) return `UNPROTECTED ${formatQty(b.unprotected.quantity)}: ${b.unprotected.why}`;
      return `Protecting ${formatQty(protectedQuantity(b))}`;
    }
    case 'done': {
      // An exit's fill in the desk's price format (main's words carry the bare figure).
      const by = /^(Stop-loss|Target) filled/.exec(b.outcome ?? '')?.[1];
      const leg = by === 'Stop-loss' ? b.stop : by === 'Target' ? b.target : null;
      if (by && leg && leg.averagePrice > 0)
        return `Done: ${by} filled at ${formatPrice(leg.averagePrice, b.tickSize)}`;
      return `Done: ${b.outcome ?? ''}`;
    }
  }
}

const CHILD_WORDS: Readonly<Record<BracketChild['status'], string>> = {
  planned: 'after the entry fills',
  placing: 'placing…',
  unconfirmed: 'not yet confirmed',
  working: 'working',
  filled: 'filled',
  cancelled: 'cancelled',
  rejected: 'rejected',
  not_placed: 'not placed',
};

/** One of its orders in a few words: "SL-M 1,480.00 · working", "LIMIT 1,530.00 · filled 50 at 1,530.00". */
export function childText(c: BracketChild | null, tickSize: number): string {
  if (!c) return '–';
  const o = c.order;
  const at = o.orderType === 'LIMIT' ? o.price : (o.triggerPrice ?? o.price);
  const price = at ? ` ${formatPrice(at, tickSize)}` : '';
  if (c.status === 'filled')
    return `${o.orderType}${price} · filled ${formatQty(c.filled)}${c.averagePrice > 0 ? ` at ${formatPrice(c.averagePrice, tickSize)}` : ''}`;
  const filled = c.filled > 0 ? ` · ${formatQty(c.filled)} filled` : '';
  return `${o.orderType}${price} · ${CHILD_WORDS[c.status]}${filled}`;
}

/**
 * A bracket's badge colour, in the blotter's palette: waiting, running, ended by an exit's fill,
 * cancelled by the trader, or ended without one (an entry rejected, no exit left working).
 */
export function bracketBadge(b: Bracket): string {
  if (b.phase === 'waiting_entry') return 'st-pending';
  if (b.phase === 'protecting') return b.problem || b.unprotected ? 'st-rejected' : 'st-open';
  const o = b.outcome ?? '';
  if (/^(Stop-loss|Target) filled/.test(o)) return 'st-complete';
  if (/^Cancelled/.test(o)) return 'st-cancelled';
  return 'st-rejected';
}

/** How the stop trails, and how often it moved: "trails ₹5 · moved 2×"; empty without a trail. */
export function trailText(b: Bracket): string {
  if (!b.trail) return '';
  const by = b.trail.by === 'points' ? `₹${b.trail.amount}` : `${b.trail.amount}%`;
  return `trails ${by}${b.trailMoves > 0 ? ` · moved ${formatQty(b.trailMoves)}×` : ''}`;
}

/** The running brackets whose position is held without a working stop-loss covering it. */
export function unprotectedBrackets(list: readonly Bracket[] | undefined): Bracket[] {
  return (list ?? []).filter((b) => b.phase !== 'done' && b.unprotected !== null);
}

/** The header's words for one: "UNPROTECTED · RELIANCE 1,369". */
export function unprotectedLabel(b: Bracket): string {
  return `UNPROTECTED · ${b.tradingsymbol} ${formatQty(b.unprotected?.quantity ?? 0)}`;
}
