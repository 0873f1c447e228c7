import type { Instrument } from '@shared/domain/instrument';
import { isWorking, type OrderRequest } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { NO_RISK_LIMITS, type RiskBreach, type RiskLimits, type RiskState } from '@shared/domain/risk';
import type { AppError } from '@shared/ipc/app-error';
import { dayPnlOf, increasesRisk, lossReached, riskBreaches, riskStatus } from '@shared/trading/risk-rules';
import type { Broker, ReadOptions } from '../../broker/broker';
import { brokerError } from '../../broker/broker-error';
import { isoIst, type Clock } from '../clock';
import type { DeskView } from '../desk-view';

/** The order-rate window. */
const MINUTE_MS = 60_000;

/** How a placement meets the guard: judged (`check`), judged but its soft limits waived (`override`), or not at all (`exempt`). */
export type RiskMode = 'check' | 'override' | 'exempt';

/** What the guard reads, and where it says the loss limit was reached. */
export interface RiskGuardDeps {
  readonly broker: Pick<Broker, 'getQuotes' | 'listOrders' | 'listHoldings'>;
  /** Reads the positions from the broker (main's view learns from every read). */
  readonly readPositions: (options?: ReadOptions) => Promise<readonly Position[]>;
  /** Main's own book, positions and ticks, where fresh (docs/architecture.md §Main's own view of the account). */
  readonly view: Pick<DeskView, 'workingOrders' | 'pricedPositions' | 'lastPrice'>;
  readonly clock: Clock;
  /** `none` on an account without market data: the price checks are off (docs/contract.md §Risk guard). */
  readonly marketData?: () => 'live' | 'none';
  /** Placements not yet confirmed either way (they may be orders already). */
  readonly unconfirmed: () => number;
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
   * Refuses (throws) an order that breaks a limit; resolves when it may be journaled. Reads it
   * needs have until `readsBy` (epoch ms; default: as long as the transport takes).
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

  /** Every limit the order breaks now. */
  public async breaches(
    order: OrderRequest,
    instrument: Instrument,
    readsBy = Number.POSITIVE_INFINITY,
  ): Promise<RiskBreach[]> {
    const l = this.#limits;
    if (Object.values(l).every((x) => x === null)) return [];
    const noMarketData = this.#deps.marketData?.() === 'none';
    const needsPrice =
      !noMarketData &&
      ((l.maxOrderValue !== null && order.orderType === 'MARKET') ||
        (l.maxPriceDeviationPct !== null && order.orderType !== 'MARKET'));
    const needsHoldings = l.dailyLossLimit !== null && order.transactionType === 'SELL' && order.product === 'CNC';
    const [lastPrice, openOrders, positions, holdings] = await Promise.all([
      needsPrice ? this.#lastPrice(instrument.instrumentToken, readsBy) : null,
      l.maxOpenOrders !== null ? this.#openOrders(readsBy) : null,
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
      openOrders,
      placedLastMinute: this.#journaled.length,
      dayPnl,
      // Unknown positions: treat it as adding risk (the loss limit then says it could not check).
      increasesRisk: positions ? increasesRisk(order, positions, holdings ?? []) : true,
      lossReachedToday: this.#reachedToday(),
      noMarketData,
    });
  }

  /** An order was journaled: it counts toward the order rate. */
  public journaled(): void {
    this.#journaled.push(this.#deps.clock.now());
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

  async #openOrders(readsBy: number): Promise<number | null> {
    const orders =
      this.#deps.view.workingOrders() ?? (await this.#read(() => this.#deps.broker.listOrders({}, URGENT), readsBy));
    return orders ? orders.filter((o) => isWorking(o.status)).length + this.#deps.unconfirmed() : null;
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

/** The refusal for these breaches (soft ones waived by an override), or null when the order may go. */
export function refusalOf(breaches: readonly RiskBreach[], override: boolean): AppError | null {
  const left = override ? breaches.filter((b) => b.hard) : breaches;
  const first = left[0];
  if (!first) return null;
  const firstHard = left.find((b) => b.hard);
  return brokerError('bad_request', `Not placed: ${left.map((b) => b.message).join('; ')}`, {
    field: firstHard ? `risk.${firstHard.limit}` : 'riskOverride',
    fields: left.map((b) => ({ field: `risk.${b.limit}`, message: b.message })),
  });
}
