import type { OrderRequest, OrderStatus } from '@shared/domain/order';
import type { Placement, PlacementState } from '@shared/domain/placement';
import type { AppError } from '@shared/ipc/app-error';
import type { AbsentOutcome, IntentFacts, SendFact } from './placement-policy';

/** Where an intent stands inside main: the contract's states plus `refused` (shown as not placed). */
export type RecordState = PlacementState | 'refused';

/** How the record came to be: clicked in this process, or found open in the ledger at start. */
export type RecordOrigin = 'clicked' | 'restored';

/**
 * One journaled intent as the order service drives it: its sends and lookups (the facts the
 * policy decides on), where it stands, and what the trader is told about it.
 *
 * Mutable on purpose and owned by one driver at a time; every change of state goes through the
 * order service, which tells the placements list.
 */
export class PlacementRecord {
  public readonly clientOrderId: string;
  public readonly requestId: string | null;
  public readonly order: OrderRequest;
  public readonly journaledAt: number;
  public readonly origin: RecordOrigin;

  public state: RecordState = 'checking';
  public windowStart: number;
  public readonly sends: SendFact[] = [];
  /** A send or lookup is running (the answer deadline never refuses while one is). */
  public busy = false;
  /** A driver loop is running for it. */
  public driving = false;
  /** POSTs still waiting for a reply after the driver moved on to lookups; abandoned once settled. */
  public readonly pendingPosts = new Set<AbortController>();
  public lastAbsentLookupAt: number | null = null;
  /**
   * How many sends have ended. A lookup counts as "after" a send only if none ended while it
   * was on its way: timestamps cannot order two events in one millisecond.
   */
  public sendsEnded = 0;
  public lastLookupAt: number | null = null;
  public lookupsSinceSend = 0;
  public lookupNotBefore: number | null = null;
  public whenAbsent: AbsentOutcome;
  /**
   * For an intent restored from an earlier day than the broker's order list shows: why a lookup
   * cannot verify it ("Kite shows only today's orders").
   */
  public readonly unverifiableWhy: string | null;
  /** The broker refuses a reused reference (its `PlacementTraits` when the record was made). */
  public readonly uniqueReferences: boolean;
  /** When the caller of place / place again is answered at the latest. */
  public answerBy: number;
  /** Shown in the unconfirmed-placements list (answered as not yet confirmed, or restored). */
  public listed: boolean;
  /** A caller (place / place again) is waiting for its answer. */
  public answering = false;
  /** Placed after it had ended "not placed": its order appeared after the landing horizon. */
  public appearedLate = false;

  /**
   * An order the stream reported with this reference while a send or lookup was running: the
   * running call settles the intent if it can, else the driver settles it from this.
   */
  public pushed: { readonly orderId: string; readonly status: OrderStatus } | null = null;

  public settledAt: number | null = null;
  public orderId: string | null = null;
  public status: OrderStatus | null = null;
  public recovered = false;
  /** Why nothing was created, when refused. */
  public refusal: AppError | null = null;
  /** Settles when the settlement is on disk (refusals are answered only after that). */
  public durable: Promise<void> = Promise.resolve();

  #wake: () => void = () => undefined;
  #changed: Promise<void>;
  #answeredWake: () => void = () => undefined;
  #answered: Promise<void> = Promise.resolve();

  public constructor(init: {
    clientOrderId: string;
    requestId: string | null;
    order: OrderRequest;
    journaledAt: number;
    origin: RecordOrigin;
    answerBy: number;
    now: number;
    /** Start of the re-send window for a clicked intent (default: when it was journaled). */
    windowStart?: number;
    uniqueReferences?: boolean;
    /** Restored, and journaled before the broker's order list starts: why it cannot be verified. */
    unverifiableWhy?: string | null;
  }) {
    this.clientOrderId = init.clientOrderId;
    this.requestId = init.requestId;
    this.order = init.order;
    this.journaledAt = init.journaledAt;
    this.origin = init.origin;
    // A restored intent's re-send window is closed from the start: only "Place again" opens one.
    // Its journal time cannot close it: the new process's clock may read earlier (set back
    // between crash and restart), and a window still open would let a lookup that found
    // nothing send it again without the trader (docs/money-path.md §After a restart nothing is
    // re-sent automatically).
    this.windowStart = init.origin === 'restored' ? Number.NEGATIVE_INFINITY : (init.windowStart ?? init.journaledAt);
    this.uniqueReferences = init.uniqueReferences ?? false;
    this.answerBy = init.answerBy;
    this.listed = init.origin === 'restored';
    this.unverifiableWhy = init.unverifiableWhy ?? null;
    this.whenAbsent =
      init.origin === 'clicked' ? 'not_placed' : this.unverifiableWhy !== null ? 'unverifiable' : 'needs_decision';
    this.#changed = this.#arm();
    if (init.origin === 'restored') {
      // Sent by a process that died: when, and whether it landed, is unknown. Treat that as one
      // send without a reply at our start, so only lookups (never a re-send) settle it.
      this.sends.push({
        startedAt: init.now,
        endedAt: init.now,
        result: 'in_doubt',
        retryable: false,
        error: null,
        notBefore: null,
      });
    }
  }

  /** What the policy needs. */
  public facts(): IntentFacts {
    return {
      windowStart: this.windowStart,
      sends: this.sends,
      lastAbsentLookupAt: this.lastAbsentLookupAt,
      lastLookupAt: this.lastLookupAt,
      lookupsSinceSend: this.lookupsSinceSend,
      lookupNotBefore: this.lookupNotBefore,
      whenAbsent: this.whenAbsent,
      uniqueReferences: this.uniqueReferences,
    };
  }

  /** A caller starts waiting for its answer; `answered()` resolves once it has it. */
  public answerStarted(): void {
    this.answering = true;
    this.#answered = new Promise((resolve) => (this.#answeredWake = resolve));
  }

  /** The caller has its answer. */
  public answerGiven(): void {
    this.answering = false;
    this.#answeredWake();
  }

  /** Resolves when the caller waiting for its answer (if any) has it. */
  public answered(): Promise<void> {
    return this.#answered;
  }

  /** Resolves at the next change of state (for a caller waiting for its answer). */
  public nextChange(): Promise<void> {
    return this.#changed;
  }

  /** Moves to `state`, waking whoever waits for a change. */
  public moveTo(state: RecordState, now: number): void {
    this.state = state;
    if (state !== 'checking') {
      for (const post of this.pendingPosts) post.abort();
      this.pendingPosts.clear();
    }
    this.settledAt = state === 'checking' || state === 'needs_decision' || state === 'unverifiable' ? null : now;
    const wake = this.#wake;
    this.#changed = this.#arm();
    wake();
  }

  /**
   * The trader chose "Place again": a fresh re-send window from now, starting from a lookup,
   * and this time an absence is final ("not placed"), not another question.
   */
  public reopen(now: number, answerBy: number): void {
    this.windowStart = now;
    this.answerBy = answerBy;
    this.whenAbsent = 'not_placed';
    this.lastAbsentLookupAt = null;
    this.lookupsSinceSend = 0;
    this.lookupNotBefore = null;
    this.moveTo('checking', now);
  }

  /** The record as the contract's `Placement` (the unconfirmed-placements list). */
  public toPlacement(): Placement {
    return {
      clientOrderId: this.clientOrderId,
      requestId: this.requestId,
      order: this.order,
      state: this.state === 'refused' ? 'not_placed' : this.state,
      journaledAt: Math.max(0, Math.round(this.journaledAt)),
      settledAt: this.settledAt === null ? null : Math.max(0, Math.round(this.settledAt)),
      orderId: this.orderId,
      status: this.status,
      detail: this.detail(),
      ...(this.appearedLate ? { appearedLate: true } : {}),
    };
  }

  /** What the trader reads about it now. */
  public detail(): string {
    const cid = this.clientOrderId;
    switch (this.state) {
      case 'checking': {
        const last = this.sends[this.sends.length - 1];
        if (last?.result === 'refused' && last.retryable && this.sends.every((s) => s.result === 'refused')) {
          return `Order ${cid} is not sent yet: the broker asked us to wait, and it goes out shortly`;
        }
        return `Checking with the broker whether order ${cid} exists…`;
      }
      case 'needs_decision':
        return `The broker has no order ${cid}, and it was not sent again after the restart: place it again, or discard it`;
      case 'unverifiable':
        return (
          `Cannot be verified: order ${cid} was placed on ${istDay(this.journaledAt)}, and ${this.unverifiableWhy ?? 'the broker no longer lists it'}. ` +
          'It may exist: placing it again may make a second order'
        );
      case 'placed':
        if (this.appearedLate) {
          return `An order reported not found has appeared: ${describeOrder(this.order)}, order ${this.orderId ?? '?'}`;
        }
        return `Placed as order ${this.orderId ?? '?'}${this.recovered ? ' (confirmed by asking the broker)' : ''}`;
      case 'refused':
        return `Not placed: ${this.refusal?.message ?? 'the broker refused it'}`;
      case 'not_placed':
        // Not found by a lookup made after its landing horizon: what is known, not more — it is
        // watched for the rest of the day (docs/money-path.md §After the landing horizon).
        return notFoundText(cid, this.journaledAt, this.settledAt ?? this.journaledAt);
      case 'discarded':
        return this.unverifiableWhy !== null
          ? `Discarded: order ${cid} could not be verified, and nothing more is sent under it`
          : `Discarded: the broker has no order ${cid}, and it will not be sent`;
    }
  }

  #arm(): Promise<void> {
    return new Promise((resolve) => (this.#wake = resolve));
  }
}

/** "25 Nov" in IST. */
function istDay(at: number): string {
  return new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', timeZone: 'Asia/Kolkata' }).format(at);
}

/** "BUY 10 INFY": an order in a few words, for what the trader reads. */
function describeOrder(o: OrderRequest): string {
  return `${o.transactionType} ${o.quantity} ${o.tradingsymbol}`;
}

/** "Not found at the broker after 12 s — most likely not placed (td-…)": an intent that ended absent. */
export function notFoundText(clientOrderId: string, from: number, to: number): string {
  const seconds = Math.max(1, Math.round((to - from) / 1_000));
  return `Not found at the broker after ${seconds} s — most likely not placed (order ${clientOrderId})`;
}
