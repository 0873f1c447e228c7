import type { OrderRequest, OrderStatus } from '../domain/order';

/**
 * Legs sent buys first, each sell only after the buys before it have filled (docs/strategy.md
 * §Placing; docs/desk.md §Baskets): a short leg whose margin or risk relies on a long leg must not
 * go while that long leg is merely working — placed, then a 1% move, and the short fills alone.
 *
 * The legs go one after another through the caller's `place` (the one exactly-once path). Before
 * the first SELL after any BUY, every BUY placed so far is read until it is COMPLETE, within a
 * deadline; if one is not filled by then (still working, partly filled, cancelled, rejected), the
 * sells are not sent and the answer names the buys still working. Pure: the bridge, the clock and
 * the waiting are the caller's, so the renderer uses it with `call()` and a test with the
 * dispatcher over the real paper broker.
 */

/** How long the sells wait for the buys to fill (ms). */
export const FILL_DEADLINE_MS = 15_000;
/** How often a working buy is read while the sells wait (ms). */
export const FILL_POLL_MS = 500;

/** How one leg's send ended, as the caller judged it. */
export interface LegSent {
  /** Whether the next leg may go (placed and not rejected). */
  readonly goOn: boolean;
  /** The broker's order id, when it is known. */
  readonly orderId: string | null;
}

/** What the sequencer needs. */
export interface BuysFirstDeps {
  /** Sends leg `n` once; never throws (a failure is `goOn: false`). */
  place(order: OrderRequest, n: number): Promise<LegSent>;
  /** An order as main knows it now; rejects when it cannot be read. */
  read(
    orderId: string,
  ): Promise<{ readonly status: OrderStatus; readonly filledQuantity: number; readonly quantity: number }>;
  /** Resolves after `ms` (the caller's clock). */
  wait(ms: number): Promise<void>;
  now(): number;
}

/** A buy the sells waited for in vain. */
export interface WorkingBuy {
  readonly n: number;
  readonly orderId: string;
  /** As last read; null when it could not be read. */
  readonly status: OrderStatus | null;
  readonly filledQuantity: number;
  readonly quantity: number;
}

/** How the run ended. */
export type BuysFirstResult =
  | { readonly kind: 'done' }
  /** Leg `n` did not go in (refused, rejected, not yet confirmed): the legs after it were not sent. */
  | { readonly kind: 'stopped'; readonly n: number }
  /** The sells from leg `n` on were not sent: these buys had not filled by the deadline. */
  | { readonly kind: 'held'; readonly n: number; readonly working: readonly WorkingBuy[] };

/** Runs the legs in order, holding the sells back until the buys before them filled. */
export async function placeBuysFirst(
  orders: readonly OrderRequest[],
  deps: BuysFirstDeps,
  options: { readonly deadlineMs?: number; readonly pollMs?: number } = {},
): Promise<BuysFirstResult> {
  const deadlineMs = options.deadlineMs ?? FILL_DEADLINE_MS;
  const pollMs = options.pollMs ?? FILL_POLL_MS;
  const buys: Array<{ readonly n: number; readonly orderId: string }> = [];
  let filled = true;
  for (let n = 0; n < orders.length; n++) {
    const order = orders[n] as OrderRequest;
    if (order.transactionType === 'SELL' && buys.length > 0 && !filled) {
      const working = await awaitFills(buys, deps, deadlineMs, pollMs);
      if (working.length > 0) return { kind: 'held', n, working };
      filled = true;
    }
    const sent = await deps.place(order, n);
    if (!sent.goOn) return { kind: 'stopped', n };
    if (order.transactionType === 'BUY') {
      // A buy placed without its id cannot be watched: the sells after it are held.
      buys.push({ n, orderId: sent.orderId ?? '' });
      filled = false;
    }
  }
  return { kind: 'done' };
}

/** Reads every buy until each is COMPLETE or the deadline passes; answers those that are not. */
async function awaitFills(
  buys: readonly { readonly n: number; readonly orderId: string }[],
  deps: BuysFirstDeps,
  deadlineMs: number,
  pollMs: number,
): Promise<WorkingBuy[]> {
  const until = deps.now() + deadlineMs;
  for (;;) {
    const working: WorkingBuy[] = [];
    for (const b of buys) {
      const o = b.orderId === '' ? null : await deps.read(b.orderId).catch(() => null);
      if (o?.status === 'COMPLETE') continue;
      working.push({
        n: b.n,
        orderId: b.orderId,
        status: o?.status ?? null,
        filledQuantity: o?.filledQuantity ?? 0,
        quantity: o?.quantity ?? 0,
      });
    }
    // A buy that can no longer fill (cancelled, rejected) will not fill by waiting.
    const hopeless = working.some((w) => w.status === 'CANCELLED' || w.status === 'REJECTED');
    if (working.length === 0 || hopeless || deps.now() >= until) return working;
    await deps.wait(Math.min(pollMs, Math.max(0, until - deps.now())));
  }
}

/** The trader's words for buys the sells waited for in vain. */
export function heldBackText(working: readonly WorkingBuy[]): string {
  const each = working.map((w) => {
    const state =
      w.status === null
        ? 'could not be read'
        : w.status === 'CANCELLED' || w.status === 'REJECTED'
          ? w.status.toLowerCase()
          : `working, ${w.filledQuantity} of ${w.quantity} filled`;
    return `leg ${w.n + 1} (order ${w.orderId || 'not known'}) ${state}`;
  });
  return `The buys did not fill in time, so the sells were not sent: ${each.join('; ')}. Cancel or keep the buys in the Orders list.`;
}
