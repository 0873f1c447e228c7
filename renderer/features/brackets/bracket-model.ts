import type { Bracket, BracketChild } from '@shared/domain/bracket';
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
      return `Protecting ${formatQty(b.entry ? b.entry.filled : b.quantity)}`;
    }
    case 'done':
      return `Done: ${b.outcome ?? ''}`;
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

/** One of its orders in a few words: "SL-M 1,480.00 · working · 10". */
export function childText(c: BracketChild | null, tickSize: number): string {
  if (!c) return '–';
  const o = c.order;
  const at = o.orderType === 'LIMIT' ? o.price : (o.triggerPrice ?? o.price);
  const price = at ? ` ${formatPrice(at, tickSize)}` : '';
  const filled = c.filled > 0 ? ` · ${formatQty(c.filled)} filled` : '';
  return `${o.orderType}${price} · ${CHILD_WORDS[c.status]}${filled}`;
}

/** How the stop trails: "₹5 behind" or "1% behind". */
export function trailText(b: Bracket): string {
  if (!b.trail) return '–';
  return b.trail.by === 'points' ? `₹${b.trail.amount} behind` : `${b.trail.amount}% behind`;
}
