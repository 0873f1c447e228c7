import type { Instrument } from '@shared/domain/instrument';
import { isWorking, type Order, type OrderRequest } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import type { GttRequest } from '@shared/domain/gtt';
import { legOrder } from '@shared/trading/gtt-rules';
import {
  NO_RISK_LIMITS,
  type RiskBreach,
  type RiskLimitName,
  type RiskLimits,
  type RiskState,
} from '@shared/domain/risk';
import type { AppError } from '@shared/ipc/app-error';
import {
  dayPnlOf,
  increasesRisk,
  lossReached,
  NOT_JUDGED_ON_GTT,
  NOT_JUDGED_ON_MODIFY,
  riskBreaches,
  riskStatus,
  type PendingOrder,
} from '@shared/trading/risk-rules';
import type { Broker, ReadOptions } from '../../broker/broker';
import { brokerError } from '../../broker/broker-error';
import { isoIst, type Clock } from '../clock';
import { FRESH_BOOK_MS, type DeskView } from '../desk-view';

/** The order-rate window. */
const MINUTE_MS = 60_000;

/** How a placement meets the guard: judged (`check`), judged but its soft limits waived (`override`), or not at all (`exempt`). */
export type RiskMode = 'check' | 'override' | 'exempt';

/** An order on its way: its id once the broker named it. */
export interface PendingPlacement {
  readonly orderId: string | null;
  readonly order: OrderRequest;
}

/** What the guard reads, and where it says the loss limit was reached. */
export interface RiskGuardDeps {
  readonly broker: Pick<Broker, 'getQuotes' | 'listOrders' | 'listHoldings'>;
  /** Reads the positions from the broker (main's view learns from every read). */
  readonly readPositions: (options?: ReadOptions) => Promise<readonly Position[]>;
  /** Main's own book, positions and ticks, where fresh (docs/live-data.md §Main's own view of the account). */
  readonly view: Pick<DeskView, 'orders' | 'pricedPositions' | 'lastPrice'>;
  readonly clock: Clock;
  /** `none` on an account without market data: the price checks are off (docs/contract.md §Risk guard). */
  readonly marketData?: () => 'live' | 'none';
  /**
   * Orders on their way that the broker's book may not show yet: past the guard and journaling,
   * not yet confirmed, or placed moments ago (`orderId` once known). They count as working.
   */
  readonly pending: () => readonly PendingPlacement[];
  /** Told the IST date the day's loss first reached the limit (the app keeps it across a restart). */
  readonly onLossReached?: (istDate: string) => void;
}

/**
 * The risk guard (docs/contract.md §Risk guard): the trader's precautionary limits, applied by
 * the order service before an intent is journaled. A breach is a `bad_request` naming every
 * limit broken with its figures; `field` is `riskOverride` when all of them are soft (the trader
 * may place that one order anyway), else `risk.<the first hard limit>`. It needs only what the
 * limits in force need, and takes it from main's own view where that is fresh; a read it must
 * make goes ahead of the panels' polls (the order-action lane) and has until `readsBy`; a figure
 * it cannot read in time breaks the limit that needs it.
 */
export class RiskGuard {
  readonly #deps: RiskGuardDeps;
  #limits: RiskLimits = NO_RISK_LIMITS;
  #journaled: number[] = [];
  #reachedOn: string | null = null;
  #gate: Promise<void> = Promise.resolve();
  /** Modifications past the guard whose answer has not settled: the order as it would become. */
  readonly #modifying = new Map<
    symbol,
    { readonly orderId: string; readonly becomes: PendingOrder; settledAt: number | null }
  >();

  public constructor(deps: RiskGuardDeps) {
    this.#deps = deps;
  }

  /** The limits in force. */
  public limits(): RiskLimits {
    return this.#limits;
  }

  /** Replaces the limits (the settings dialog, or the profile's stored limits at login). */
  public setLimits(limits: RiskLimits): void {
    this.#limits = limits;
  }

  /** Restores the day the loss limit was reached (from settings at login): it holds until that IST day ends. */
  public restoreLossReached(istDate: string | null): void {
    this.#reachedOn = istDate;
  }

  /**
   * The guard's gate: checks of one account are serial, and what a check lets through is counted
   * (`journaled`, and the caller's pending list) before the next check begins — so checks that
   * overlap cannot all see the same state and together walk past a limit (docs/contract.md §Risk
   * guard). Resolves with the release; hold it from the check until the order counts.
   */
  public enter(): Promise<() => void> {
    let release: () => void = () => undefined;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const before = this.#gate;
    this.#gate = before.then(() => turn);
    return before.then(() => release);
  }

  /**
   * Refuses (throws) an order that breaks a limit; resolves when it may be journaled. Reads it
   * needs have until `readsBy` (epoch ms; default: as long as the transport takes). Call it
   * inside the gate (`enter`).
   */
  public async check(
    order: OrderRequest,
    instrument: Instrument,
    mode: RiskMode,
    options: { readonly readsBy?: number } = {},
  ): Promise<void> {
    if (mode === 'exempt') return;
    const refusal = refusalOf(await this.breaches(order, instrument, options.readsBy), mode === 'override');
    if (refusal) throw refusal;
  }

  /**
   * Refuses (throws) a modification that would make `current` an order breaking a limit: judged as
   * the order it would become, against every limit but the counts (it adds no order). Lowering
   * the quantity, or changing only the validity, never breaches and is not judged.
   */
  public async checkModification(
    current: Order,
    becomes: OrderRequest,
    instrument: Instrument,
    mode: RiskMode,
    options: { readonly readsBy?: number } = {},
  ): Promise<void> {
    if (mode === 'exempt' || onlyReduces(current, becomes)) return;
    const breaches = await this.breaches(becomes, instrument, options.readsBy, current);
    const refusal = refusalOf(breaches, mode === 'override', 'Not modified');
    if (refusal) throw refusal;
  }

  /**
   * A modification passed the guard and is on its way: until its answer settles, the order
   * counts as working at the larger of what it is and what it would become, so a second
   * modification checked meanwhile sees this one's growth (docs/contract.md §Risk guard). Take
   * it inside the gate; returns the release, called when the answer settles. It still counts
   * for as long as main's book may be fresh without showing it (`FRESH_BOOK_MS`).
   */
  public reserveModification(current: Order, becomes: OrderRequest): () => void {
    const key = Symbol(current.orderId);
    const left = Math.max(current.pendingQuantity, becomes.quantity - current.filledQuantity);
    const entry = {
      orderId: current.orderId,
      becomes: { ...becomes, pendingQuantity: left },
      settledAt: null as number | null,
    };
    this.#modifying.set(key, entry);
    return () => {
      entry.settledAt ??= this.#deps.clock.now();
    };
  }

  /**
   * Refuses (throws) a GTT whose legs break a limit that can be known now: each leg is judged as
   * the LIMIT order it will place — its quantity, its value at its price, the daily loss lock
   * (docs/contract.md §Risk guard). The counts and the price's distance from the market are for
   * the broker's moment, which main does not see.
   */
  public async checkGtt(
    request: Pick<GttRequest, 'exchange' | 'tradingsymbol' | 'legs'>,
    instrument: Instrument,
    mode: RiskMode,
    /** How each leg is named in a refusal, and the refusal's verdict (a bracket's exits: docs/brackets.md §Risk). */
    words: { readonly legs?: readonly string[]; readonly verdict?: string } = {},
  ): Promise<void> {
    if (mode === 'exempt') return;
    const all: RiskBreach[] = [];
    for (const [n, leg] of request.legs.entries()) {
      const order = legOrder(request, leg);
      const breaches = await this.breaches(order, instrument, Number.POSITIVE_INFINITY, null, NOT_JUDGED_ON_GTT);
      const named = words.legs?.[n];
      const legName = named !== undefined ? `${named}: ` : request.legs.length > 1 ? `Leg ${n + 1}: ` : '';
      for (const b of breaches)
        if (!all.some((x) => x.limit === b.limit)) all.push({ ...b, message: legName + b.message });
    }
    const refusal = refusalOf(all, mode === 'override', words.verdict ?? 'Not created');
    if (refusal) throw refusal;
  }

  /**
   * Every limit the order breaks now. `replacing`: the working order it would become (a
   * modification), which neither counts toward the open orders nor toward its own exits, and
   * whose filled part is in the positions already.
   */
  public async breaches(
    order: OrderRequest,
    instrument: Instrument,
    readsBy = Number.POSITIVE_INFINITY,
    replacing: Pick<Order, 'orderId' | 'filledQuantity'> | null = null,
    notJudged: readonly RiskLimitName[] = replacing ? NOT_JUDGED_ON_MODIFY : [],
  ): Promise<RiskBreach[]> {
    const modifying = replacing?.orderId ?? null;
    const l = this.#limits;
    if (Object.values(l).every((x) => x === null)) return [];
    const noMarketData = this.#deps.marketData?.() === 'none';
    const judged = (name: RiskLimitName): boolean => l[name] !== null && !notJudged.includes(name);
    const needsPrice =
      !noMarketData &&
      ((judged('maxOrderValue') && order.orderType === 'MARKET') ||
        (judged('maxPriceDeviationPct') && order.orderType !== 'MARKET'));
    const needsHoldings = l.dailyLossLimit !== null && order.transactionType === 'SELL' && order.product === 'CNC';
    const needsWorking = judged('maxOpenOrders') || l.dailyLossLimit !== null;
    const [lastPrice, working, positions, holdings] = await Promise.all([
      needsPrice ? this.#lastPrice(instrument.instrumentToken, readsBy) : null,
      needsWorking ? this.#working(readsBy, modifying) : null,
      l.dailyLossLimit !== null ? this.#positions(readsBy) : null,
      needsHoldings ? this.#read(() => this.#deps.broker.listHoldings(URGENT), readsBy) : null,
    ]);
    const dayPnl = positions ? dayPnlOf(positions) : null;
    this.#noteLoss(dayPnl);
    const now = this.#deps.clock.now();
    this.#journaled = this.#journaled.filter((t) => t > now - MINUTE_MS);
    return riskBreaches(l, {
      order,
      instrument,
      lastPrice,
      openOrders: working?.length ?? null,
      placedLastMinute: this.#journaled.length,
      notJudged,
      dayPnl,
      // Unknown positions or orders: treat it as adding risk (the loss limit then says it could not check).
      increasesRisk:
        positions && working
          ? increasesRisk(
              { ...order, quantity: order.quantity - (replacing?.filledQuantity ?? 0) },
              positions,
              holdings ?? [],
              working,
            )
          : true,
      lossReachedToday: this.#reachedToday(),
      noMarketData,
    });
  }

  /**
   * An order passed the guard and is being journaled: it counts toward the order rate now.
   * Returns the undo, for when it could not be journaled after all (nothing was sent).
   */
  public journaled(): () => void {
    const at = this.#deps.clock.now();
    this.#journaled.push(at);
    return () => {
      const i = this.#journaled.indexOf(at);
      if (i >= 0) this.#journaled.splice(i, 1);
    };
  }

  /** The limits and where the day stands (reads the positions when a loss limit is set). */
  public async state(): Promise<RiskState> {
    const l = this.#limits;
    const positions = l.dailyLossLimit !== null ? await this.#read(() => this.#deps.readPositions()) : null;
    const dayPnl = positions ? dayPnlOf(positions) : null;
    this.#noteLoss(dayPnl);
    const noMarketData = this.#deps.marketData?.() === 'none';
    return { limits: l, status: riskStatus(l, dayPnl, this.#reachedToday(), this.#deps.clock.now(), noMarketData) };
  }

  #today(): string {
    return isoIst(this.#deps.clock.now()).slice(0, 10);
  }

  #reachedToday(): boolean {
    return this.#reachedOn === this.#today();
  }

  #noteLoss(dayPnl: number | null): void {
    const loss = this.#limits.dailyLossLimit;
    if (!loss || dayPnl === null || !lossReached(dayPnl, loss.value) || this.#reachedToday()) return;
    this.#reachedOn = this.#today();
    this.#deps.onLossReached?.(this.#reachedOn);
  }

  async #lastPrice(token: number, readsBy: number): Promise<number | null> {
    const fresh = this.#deps.view.lastPrice(token);
    if (fresh !== null) return fresh;
    const quotes = await this.#read(() => this.#deps.broker.getQuotes([token], URGENT), readsBy);
    const q = quotes?.find((x) => x.instrumentToken === token);
    return q && q.lastPrice > 0 ? q.lastPrice : null;
  }

  /**
   * Every order still working, as far as main can know: the broker's (main's book when fresh,
   * else one read) and the orders on their way that it does not show yet. `modifying` is left out.
   */
  async #working(readsBy: number, modifying: string | null): Promise<PendingOrder[] | null> {
    const orders =
      this.#deps.view.orders() ?? (await this.#read(() => this.#deps.broker.listOrders({}, URGENT), readsBy));
    if (!orders) return null;
    const known = new Set(orders.map((o) => o.orderId));
    const grown = new Map<string, PendingOrder>();
    const now = this.#deps.clock.now();
    for (const [key, m] of this.#modifying) {
      if (m.settledAt !== null && now - m.settledAt > FRESH_BOOK_MS) {
        this.#modifying.delete(key);
        continue;
      }
      const had = grown.get(m.orderId);
      if (!had || had.pendingQuantity < m.becomes.pendingQuantity) grown.set(m.orderId, m.becomes);
    }
    // An order with a modification on its way counts at the larger of the two.
    const larger = (id: string, o: PendingOrder): PendingOrder => {
      const g = grown.get(id);
      return g && g.pendingQuantity > o.pendingQuantity ? g : o;
    };
    const out: PendingOrder[] = orders
      .filter((o) => isWorking(o.status) && o.orderId !== modifying)
      .map((o) => larger(o.orderId, o));
    for (const p of this.#deps.pending()) {
      if (p.orderId !== null && (known.has(p.orderId) || p.orderId === modifying)) continue;
      const o = { ...p.order, pendingQuantity: p.order.quantity };
      out.push(p.orderId !== null ? larger(p.orderId, o) : o);
    }
    return out;
  }

  async #positions(readsBy: number): Promise<readonly Position[] | null> {
    return this.#deps.view.pricedPositions() ?? (await this.#read(() => this.#deps.readPositions(URGENT), readsBy));
  }

  /**
   * A read the guard needs; null when it fails or is not back by `readsBy` (the limit that needs
   * it then refuses, saying so). A late read goes on in the background and changes nothing.
   */
  async #read<T>(fn: () => Promise<T>, readsBy = Number.POSITIVE_INFINITY): Promise<T | null> {
    const read = fn().catch(() => null);
    const left = readsBy - this.#deps.clock.now();
    if (!Number.isFinite(left)) return read;
    if (left <= 0) return null;
    return Promise.race([read, this.#deps.clock.sleep(left).then(() => null)]);
  }
}

const URGENT: ReadOptions = { urgent: true };

/**
 * True when a modification can only lower the risk: the quantity down (or the same) and nothing
 * else that prices the order changed (type, price, trigger); the validity alone does not count.
 */
function onlyReduces(current: Order, becomes: OrderRequest): boolean {
  return (
    becomes.quantity <= current.quantity &&
    becomes.orderType === current.orderType &&
    (becomes.price ?? null) === (current.price ?? null) &&
    (becomes.triggerPrice ?? null) === (current.triggerPrice ?? null)
  );
}

/** The refusal for these breaches (soft ones waived by an override), or null when the order may go. */
export function refusalOf(breaches: readonly RiskBreach[], override: boolean, verdict = 'Not placed'): AppError | null {
  const left = override ? breaches.filter((b) => b.hard) : breaches;
  const first = left[0];
  if (!first) return null;
  const firstHard = left.find((b) => b.hard);
  return brokerError('bad_request', `${verdict}: ${left.map((b) => b.message).join('; ')}`, {
    field: firstHard ? `risk.${firstHard.limit}` : 'riskOverride',
    fields: left.map((b) => ({ field: `risk.${b.limit}`, message: b.message })),
  });
}
