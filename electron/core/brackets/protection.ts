import type { BracketChildStatus } from '@shared/domain/bracket';
import type { TransactionType } from '@shared/domain/order';

/**
 * The protection controller's decision (docs/brackets.md §The controller), pure: what the
 * position needs, what exits are at the broker, and what the protection declares in; the
 * fewest actions that converge the exits on it out, with whether the position is unprotected
 * and whether the protection is done. No clock, no I/O: `protection.test.ts` states it as a table.
 */

/** The two exits, the stop-loss first: it is the protection, placed before the target. */
export const EXITS = ['stop', 'target'] as const;
export type ExitKey = (typeof EXITS)[number];

/** One exit as the controller sees it. */
export interface ExitView {
  readonly status: BracketChildStatus;
  /** The order's quantity at the broker (what it was placed or last resized for). */
  readonly quantity: number;
  /** What this order has filled. */
  readonly filled: number;
  /** A modification or cancel is in flight, or a retry is not yet due: leave it this step. */
  readonly busy: boolean;
  /** Its last placement, resize or cancel failed (it is retried with backoff). */
  readonly failed: boolean;
}

export interface ProtectionInput {
  /** The position's side: BUY for a long (the exits sell). */
  readonly side: TransactionType;
  /** What the protection still protects: the entry's fills (or the protect's quantity) less every exit fill. */
  readonly protectedQty: number;
  /** The entry may still fill more. */
  readonly entryLive: boolean;
  /** The trader cancelled the protection. */
  readonly cancelRequested: boolean;
  /** The net position (signed, + long) of the instrument and product as main knows it; null: unknown. */
  readonly held: number | null;
  /** Other working orders that reduce the same position (quantity left); null: unknown (capped by `held` alone). */
  readonly otherReducing: number | null;
  readonly stop: ExitView | null;
  readonly target: ExitView | null;
}

export type ProtectionAction =
  /** A new exit order for `quantity` (a fresh reference: the role's next generation). */
  | { readonly t: 'place'; readonly exit: ExitKey; readonly quantity: number }
  /** The working exit modified to `quantity` (its total, fills included). */
  | { readonly t: 'resize'; readonly exit: ExitKey; readonly quantity: number }
  | { readonly t: 'cancel'; readonly exit: ExitKey };

export interface ProtectionDecision {
  /** What each exit must cover now: the protected quantity, capped by what is held net of other exits. */
  readonly need: number;
  readonly actions: readonly ProtectionAction[];
  /** Set while a held, protected quantity has no working stop-loss covering it: how much and why. */
  readonly unprotected: { readonly quantity: number; readonly why: string } | null;
  /** Why the protection is over, once nothing of it is left working; null while it runs. */
  readonly done: 'cancelled' | 'exited' | 'flat' | null;
}

const LIVE: ReadonlySet<BracketChildStatus> = new Set(['placing', 'unconfirmed', 'working']);
/** States from which a new order is placed when the position still needs one. */
const ENDED: ReadonlySet<BracketChildStatus> = new Set(['planned', 'not_placed', 'rejected', 'cancelled', 'filled']);

const NAMES: Record<ExitKey, string> = { stop: 'Stop-loss', target: 'Target' };

/** How much of the position the protection's side holds: 0 when flat or reversed; null unknown. */
export function heldOnSide(side: TransactionType, held: number | null): number | null {
  if (held === null) return null;
  return Math.max(0, side === 'BUY' ? held : -held);
}

/** The controller's decision for one protection. */
export function decideProtection(p: ProtectionInput): ProtectionDecision {
  const onSide = heldOnSide(p.side, p.held);
  // Never more than is held net of other reducing orders: an exit must not reverse the position.
  const room = onSide === null ? null : Math.max(0, onSide - (p.otherReducing ?? 0));
  const need = p.cancelRequested ? 0 : Math.max(0, room === null ? p.protectedQty : Math.min(p.protectedQty, room));
  const actions: ProtectionAction[] = [];

  for (const key of EXITS) {
    const x = p[key];
    if (!x || x.busy) continue;
    if (x.status === 'working') {
      const open = x.quantity - x.filled;
      if (need === 0) actions.push({ t: 'cancel', exit: key });
      else if (open !== need) {
        // Raising the target waits for the stop-loss to cover: the stop first when only one is taken.
        if (key === 'target' && need > open && !stopCovers(p.stop, need)) continue;
        actions.push({ t: 'resize', exit: key, quantity: x.filled + need });
      }
      continue;
    }
    if (ENDED.has(x.status) && need > 0 && !p.cancelRequested) {
      if (key === 'target' && !stopCovers(p.stop, need)) continue;
      actions.push({ t: 'place', exit: key, quantity: need });
    }
  }

  const live = EXITS.some((k) => {
    const x = p[k];
    return x !== null && LIVE.has(x.status);
  });
  let done: ProtectionDecision['done'] = null;
  if (p.cancelRequested) done = live ? null : 'cancelled';
  else if (!live && !p.entryLive) {
    if (p.protectedQty === 0) done = 'exited';
    else if (onSide === 0) done = 'flat';
  }

  return { need, actions, unprotected: done === null ? unprotected(p, need) : null, done };
}

/** The stop-loss is absent (a target-only protection) or working for at least `need`. */
function stopCovers(stop: ExitView | null, need: number): boolean {
  return stop === null || (stop.status === 'working' && stop.quantity - stop.filled >= need);
}

function unprotected(p: ProtectionInput, need: number): ProtectionDecision['unprotected'] {
  const s = p.stop;
  if (!s || need === 0) return null;
  if (s.status === 'working') {
    const open = s.quantity - s.filled;
    // Short while a resize is on its way is not yet a problem; short after one failed is.
    if (open >= need || !s.failed) return null;
    return { quantity: need - open, why: `${NAMES.stop} covers ${open} of ${need}: not resized` };
  }
  // Being placed: the answer is coming, unless an earlier attempt already failed.
  if (s.status === 'placing' || s.status === 'unconfirmed')
    return s.failed ? { quantity: need, why: `${NAMES.stop} not placed yet: trying again` } : null;
  const why: Record<string, string> = {
    planned: 'Stop-loss not placed yet',
    not_placed: 'Stop-loss not placed',
    rejected: 'Stop-loss rejected',
    cancelled: 'Stop-loss cancelled',
    filled: 'Stop-loss filled for less than is held',
  };
  return { quantity: need, why: why[s.status] ?? 'No stop-loss working' };
}
