import type { DriftFinding, DriftStatus } from '@shared/domain/drift';
import type { Order, Trade } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { AppError } from '@shared/ipc/app-error';
import type { Broker } from '../../broker/broker';
import { isoIst } from '../clock';
import { compareDrift, positionKey, tradingDay, type DeskPlacement, type Observation } from './drift-rules';

/** Schedules one call after `ms`; returns its cancel (tests drive it by hand). */
export type SetTimer = (fire: () => void, ms: number) => () => void;

/** What the monitor reads main's own view from. */
export interface DeskSource {
  /** Brings main's view up to date before a check (main's order book's sync); a failure is a check that could not be made. */
  beforeCheck?(): Promise<void>;
  /** The filled quantity main's order book holds for this order (undefined: not held). */
  seenFilled(orderId: string): number | undefined;
  /** True when the reference was not journaled by this run but is one Tradedesk issues (an earlier run). */
  earlierReference?(clientOrderId: string): boolean;
}

/** Knobs and dependencies of the monitor. */
export interface DriftMonitorDeps {
  readonly broker: Pick<Broker, 'listOrders' | 'listTrades' | 'listPositions' | 'marketStatus' | 'listGtts'>;
  readonly desk: DeskSource;
  /** Epoch ms. */
  readonly now: () => number;
  readonly setTimer: SetTimer;
  /** Told the whole status at every change (`drift.changed`). */
  readonly onChange?: (status: DriftStatus) => void;
  /** A check at least this often (default a minute). */
  readonly everyMs?: number;
  /** A difference seen once is checked again this soon, and raised only if it is still there (default 5 s). */
  readonly confirmAfterMs?: number;
  /**
   * The login's check waits for this — the main window's first screen drawn — or
   * `firstScreenWaitMs` (default 5 s), whichever comes first: its reads and its parse of the
   * whole order book, which stalls main's event loop, stay off the desk's first paint
   * (docs/live-data.md §The first screen first). Absent: at once.
   */
  readonly firstScreen?: Promise<void>;
  readonly firstScreenWaitMs?: number;
}

/** The longest the login's check waits for the desk's first screen (a desk with no window). */
const FIRST_SCREEN_WAIT_MS = 5_000;

/** Findings kept at most (the oldest go first; a desk with more has bigger problems than the list). */
const MAX_FINDINGS = 200;

/**
 * The reconciliation drift alarm (docs/contract.md §Drift alarm): every minute, after each
 * stream reconnect and login, and on "Check now", reads the broker's order book, positions and
 * tradebook (as main's background work, through the same client limits as every read) and
 * compares them with what this desk journaled, placed and saw filled, and with the opening
 * positions. A difference seen once is checked again a few seconds later and raised only if it
 * is still there with the same figures; then it stays until a check no longer sees it or the
 * trader acknowledges it. A check that cannot read the broker says so and changes nothing.
 */
export class DriftMonitor {
  readonly #deps: DriftMonitorDeps;
  readonly #everyMs: number;
  readonly #confirmAfterMs: number;
  readonly #references = new Set<string>();
  readonly #absent = new Set<string>();
  readonly #placed = new Map<string, DeskPlacement>();
  readonly #findings = new Map<string, DriftFinding>();
  readonly #suspects = new Map<string, number>();
  readonly #acknowledged = new Set<string>();
  #opening = new Map<string, number>();
  #openingDay: string | null = null;
  #checkedAt: number | null = null;
  #failure: string | null = null;
  #running: Promise<void> | null = null;
  #cancelTimer: (() => void) | null = null;
  /** The login's check while it waits for the first screen (null once it ran or was stopped). */
  #waiting: Promise<void> | null = null;
  #stopped = true;

  public constructor(deps: DriftMonitorDeps) {
    this.#deps = deps;
    this.#everyMs = deps.everyMs ?? 60_000;
    this.#confirmAfterMs = deps.confirmAfterMs ?? 5_000;
  }

  // ---------------------------------------------------------------- main's own view

  /** The order service journaled this reference: an order carrying it was placed by this desk. */
  public journaled(clientOrderId: string): void {
    this.#references.add(clientOrderId);
  }

  /** The order service told the trader nothing was created under this reference: the broker must never list it. */
  public absent(clientOrderId: string): void {
    this.#absent.add(clientOrderId);
  }

  /** The order service learnt the broker's id of an order it placed: the broker must list it. */
  public placed(placement: DeskPlacement): void {
    this.#references.add(placement.clientOrderId);
    this.#placed.set(placement.orderId, placement);
  }

  // ---------------------------------------------------------------- running

  /**
   * Checks (login) once the desk's first screen is drawn (`firstScreen`, at most
   * `firstScreenWaitMs`; at once without one), then every `everyMs`. A second call waits the same
   * way, and a first screen already drawn waits for nothing.
   */
  public start(): void {
    this.#stopped = false;
    const first = this.#deps.firstScreen;
    if (!first) {
      void this.check();
      return;
    }
    let cancelBound = (): void => undefined;
    const bound = new Promise<void>((resolve) => {
      cancelBound = this.#deps.setTimer(resolve, this.#deps.firstScreenWaitMs ?? FIRST_SCREEN_WAIT_MS);
    });
    const waiting: Promise<void> = Promise.race([first, bound]).then(() => {
      cancelBound();
      if (this.#waiting !== waiting) return; // stopped, or started again, meanwhile
      this.#waiting = null;
      void this.check();
    });
    this.#waiting = waiting;
  }

  /**
   * The stream opened (after login, after a reconnect): checks now, unless the login's check is
   * still waiting for the first screen — that check reads after this opening anyway.
   */
  public streamOpened(): void {
    if (this.#waiting === null) void this.check();
  }

  /** No more checks (logout, close); a check in flight finishes without scheduling another. */
  public stop(): void {
    this.#stopped = true;
    this.#waiting = null;
    this.#cancelTimer?.();
    this.#cancelTimer = null;
  }

  /** Checks now (a reconnect, "Check now"); a check already running is shared. Resolves with the status after it. */
  public check(): Promise<DriftStatus> {
    if (!this.#running) {
      this.#running = this.#check().finally(() => {
        this.#running = null;
        this.#schedule();
      });
      this.#emit();
    }
    // Read after the check has ended: the answer must not say "checking" once the push said it ended.
    return this.#running.then(() => this.status());
  }

  /** The trader has seen this finding: it leaves the list and is not raised again while the same drift persists. */
  public acknowledge(id: string): DriftStatus {
    if (!this.#findings.delete(id)) {
      throw new AppError({
        kind: 'bad_request',
        message: 'No such drift finding: it may have been resolved or acknowledged already',
        field: 'id',
      });
    }
    this.#acknowledged.add(id);
    this.#emit();
    return this.status();
  }

  /** Where the alarm stands. */
  public status(): DriftStatus {
    return {
      findings: [...this.#findings.values()].map((f) => ({ ...f })),
      checking: this.#running !== null,
      checkedAt: this.#checkedAt,
      failure: this.#failure,
      suspected: this.#suspects.size,
    };
  }

  async #check(): Promise<void> {
    const startedAt = this.#deps.now();
    let orders: readonly Order[];
    let positions: readonly Position[];
    let tradesBefore: readonly Trade[];
    let tradesAfter: readonly Trade[];
    let gttOrders: ReadonlySet<string>;
    let marketNow: string;
    try {
      const broker = this.#deps.broker;
      await this.#deps.desk.beforeCheck?.();
      const [market, trades] = await Promise.all([broker.marketStatus(), broker.listTrades()]);
      marketNow = market.now;
      tradesBefore = trades;
      [orders, positions] = await Promise.all([broker.listOrders(), broker.listPositions()]);
      // After the orders: a GTT that fired before they were read is in this list with its order.
      const [after, gtts] = await Promise.all([broker.listTrades(), broker.listGtts()]);
      tradesAfter = after;
      gttOrders = new Set(gtts.flatMap((g) => g.legs.flatMap((l) => (l.orderId === null ? [] : [l.orderId]))));
    } catch (err) {
      const why = err instanceof AppError ? err.info.message : 'unexpected error';
      this.#failure = `Could not check at ${isoIst(startedAt).slice(11, 16)} IST: ${why}`;
      return;
    }
    const now = this.#deps.now();
    const day = tradingDay(marketNow, tradesAfter, orders);
    this.#rollDay(day, startedAt, positions);
    const seen = compareDrift(
      { orders, positions, tradesBefore, tradesAfter, startedAt, day, gttOrders },
      {
        toldAbsent: (ref) => ref !== null && this.#absent.has(ref),
        ownsReference: (ref) =>
          ref !== null && (this.#references.has(ref) || this.#deps.desk.earlierReference?.(ref) === true),
        placed: [...this.#placed.values()],
        seenFilled: (id) => this.#deps.desk.seenFilled(id),
        opening: (key) => this.#opening.get(key) ?? 0,
      },
    );
    this.#apply(seen, now);
    this.#checkedAt = now;
    this.#failure = null;
  }

  /** Raises what was seen twice in a row, resolves what is gone, forgets acknowledgements of drift that went away. */
  #apply(seen: readonly Observation[], now: number): void {
    const ids = new Set(seen.map((o) => o.id));
    for (const id of this.#findings.keys()) if (!ids.has(id)) this.#findings.delete(id);
    for (const id of this.#suspects.keys()) if (!ids.has(id)) this.#suspects.delete(id);
    for (const id of this.#acknowledged) if (!ids.has(id)) this.#acknowledged.delete(id);
    for (const o of seen) {
      const raised = this.#findings.get(o.id);
      if (raised) {
        raised.lastSeenAt = now;
        continue;
      }
      if (this.#acknowledged.has(o.id)) continue;
      const first = this.#suspects.get(o.id);
      if (first === undefined) {
        this.#suspects.set(o.id, now);
        continue;
      }
      this.#suspects.delete(o.id);
      this.#findings.set(o.id, { ...o, firstSeenAt: first, lastSeenAt: now });
    }
    while (this.#findings.size > MAX_FINDINGS) {
      const oldest = this.#findings.keys().next().value;
      if (oldest === undefined) break;
      this.#findings.delete(oldest);
    }
  }

  /**
   * The first read of the broker's trading day (its market clock's IST date) records the opening
   * positions; orders placed before a new day began are no longer looked for.
   */
  #rollDay(day: string, startedAt: number, positions: readonly Position[]): void {
    if (day === this.#openingDay) return;
    const rolled = this.#openingDay !== null;
    this.#openingDay = day;
    this.#opening = new Map(positions.map((p) => [positionKey(p), p.overnightQuantity]));
    if (rolled) for (const [id, p] of this.#placed) if (p.at < startedAt) this.#placed.delete(id);
  }

  #schedule(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    if (this.#stopped) {
      this.#emit();
      return;
    }
    const wait = this.#suspects.size > 0 ? this.#confirmAfterMs : this.#everyMs;
    this.#cancelTimer = this.#deps.setTimer(() => {
      this.#cancelTimer = null;
      void this.check();
    }, wait);
    this.#emit();
  }

  #emit(): void {
    this.#deps.onChange?.(this.status());
  }
}

/** The real timer: unref'd, so a pending check never keeps a process alive. */
export const systemTimer: SetTimer = (fire, ms) => {
  const t = setTimeout(fire, ms);
  t.unref();
  return () => clearTimeout(t);
};
