import type { OrderRequest } from '@shared/domain/order';

/** What the barrier judges an order by: its position and how it moves it. */
export type BarrierOrder = Pick<
  OrderRequest,
  'exchange' | 'tradingsymbol' | 'product' | 'transactionType' | 'quantity'
>;
import type { KnownPosition, PositionKey } from '../known-positions';

/** The barrier while it is up: since when, and which run raised it. */
export interface BarrierState {
  /** Epoch ms. */
  readonly since: number;
  readonly runId: string;
}

/** What the barrier asks to tell an order that only reduces what is held from one that adds risk. */
export interface BarrierDeps {
  /** Main's known position (docs/live-data.md §Main's own view of the account). */
  readonly knownPosition: (key: PositionKey) => KnownPosition;
  /**
   * The quantity already on its way to reduce the same position (working orders and placements
   * on the reducing side, but for the intent `self` itself), so two exits cannot together reverse it.
   */
  readonly reducingOnTheWay: (key: PositionKey, side: OrderRequest['transactionType'], self?: string) => number;
  /** Epoch ms. */
  readonly now: () => number;
}

/** The words every blocked order is refused or stopped with. */
export const BARRIER_MESSAGE = 'Not sent: the kill switch is on — nothing that adds risk is sent until you re-arm it';

/**
 * The kill switch's barrier (docs/contract.md §Kill switch): from the moment a kill switch starts
 * until the trader re-arms, nothing that adds risk leaves the desk. The one placement gate asks
 * it before journaling an intent and again before every send, and an intent waiting for the
 * client's pacing is stopped where it waits, so orders queued, paced or sent leg by leg stop
 * there; an order that only reduces a known position still goes (exits).
 */
export class KillBarrier {
  readonly #deps: BarrierDeps;
  #state: BarrierState | null = null;
  readonly #listeners = new Set<(state: BarrierState | null) => void>();

  public constructor(deps: BarrierDeps) {
    this.#deps = deps;
  }

  /** Raises the barrier (a kill switch started); it stays up until `rearm`. */
  public engage(runId: string): void {
    if (this.#state) return;
    this.#state = { since: this.#deps.now(), runId };
    this.#tell();
  }

  /** The trader's explicit re-arm: orders that add risk may go again. */
  public rearm(): void {
    if (!this.#state) return;
    this.#state = null;
    this.#tell();
  }

  /** The barrier now, or null while orders may go. */
  public state(): BarrierState | null {
    return this.#state;
  }

  /** Told every change (raised, re-armed); answers the unsubscribe. */
  public onChange(listener: (state: BarrierState | null) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Why this order may not go now (`BARRIER_MESSAGE`), or null. Only an order that reduces a
   * position main knows, by no more than is held net of what is already on its way to reduce it,
   * passes while the barrier is up.
   */
  public blocks(order: BarrierOrder, self?: string): string | null {
    if (!this.#state) return null;
    return reducesOnly(order, this.#deps, self) ? null : BARRIER_MESSAGE;
  }

  #tell(): void {
    for (const l of this.#listeners) l(this.#state);
  }
}

/** True when the order only brings a known position towards flat. */
export function reducesOnly(order: BarrierOrder, deps: Omit<BarrierDeps, 'now'>, self?: string): boolean {
  const held = deps.knownPosition(order);
  if (!held.known || held.quantity === 0) return false;
  const reducingSide = held.quantity > 0 ? 'SELL' : 'BUY';
  if (order.transactionType !== reducingSide) return false;
  const room = Math.abs(held.quantity) - deps.reducingOnTheWay(order, reducingSide, self);
  return order.quantity <= room;
}
