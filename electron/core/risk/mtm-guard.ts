import type { MtmLevel, MtmSettings, MtmState, MtmStatus, MtmTrigger } from '@shared/domain/mtm';
import { NO_MTM_SETTINGS } from '@shared/domain/mtm';
import { istDate } from '@shared/lib/ist-time';
import {
  anyLevel,
  dayCharges,
  dayMtm,
  judgeMtm,
  resolveLevels,
  type DayMtm,
  type MtmLevels,
} from '@shared/trading/mtm-rules';
import type { Position } from '@shared/domain/portfolio';
import { AppError } from '@shared/ipc/app-error';
import type { DeskView } from '../desk-view';
import type { SetTimer } from '../drift/drift-monitor';
import type { SafetyRunner } from '../safety/safety-runner';

/** What the guard measures from and what it runs. */
export interface MtmGuardDeps {
  /** Main's own view: the positions priced now, whether the account is known, the day's orders. */
  readonly view: Pick<DeskView, 'pricedPositions' | 'positions' | 'knownAccount' | 'orders'>;
  /** Reads the positions (in the order-action lane): after a fill the read's quantities are stale until then. */
  readonly readPositions: () => Promise<unknown>;
  /** The day's opening funds (the base of a level in %). */
  readonly openingFunds: () => Promise<number>;
  /** The kill switch. */
  readonly safety: Pick<SafetyRunner, 'start' | 'current' | 'idle'>;
  readonly now: () => number;
  readonly setTimer: SetTimer;
  /** Told the status at every change of state, and of the figures at most every `emitEveryMs`. */
  readonly onChange?: (status: MtmStatus) => void;
  /**
   * Told the trigger once its kill switch has started, and null when the levels are saved afresh:
   * the app keeps it, so a restart the same day does not fire again (`restoreTrigger`).
   */
  readonly onTrigger?: (trigger: MtmTrigger | null) => void;
  /** The instruments whose ticks the figure needs (main subscribes them as its own). */
  readonly watch?: (tokens: ReadonlySet<number>) => void;
  readonly emitEveryMs?: number;
}

/** How soon after a failed or stale read another is asked for. */
const READ_AGAIN_MS = 1_000;

type Figures = DayMtm;

/**
 * The account's MTM stop and target (docs/contract.md §Risk guard, "MTM stop and target"): on
 * every tick and every change of what main knows of the positions, the day's MTM is measured
 * from main's own view and judged against the trader's levels; a level hit runs the kill switch
 * (cancel all, exit all) — at once when hard, after a countdown the trader may answer when soft.
 * One trigger a day: a second breach, a second window's "Run now" or a tick during the run starts
 * nothing more. While a position or a price is not known, the MTM is unknown, and no level is
 * judged on a guess.
 */
export class MtmGuard {
  readonly #deps: MtmGuardDeps;
  #settings: MtmSettings = NO_MTM_SETTINGS;
  #status: MtmStatus;
  /** The IST day the peak and the trigger belong to. */
  #day: string;
  #peak: number | null = null;
  #trigger: MtmTrigger | null = null;
  #dismissed = false;
  #cancelCountdown: (() => void) | null = null;
  #funds: { day: string; value: number | null; reading: boolean } | null = null;
  #readingSince: number | null = null;
  #lastEmit = 0;
  /** The positions the last figure was measured on (their multipliers price the charges). */
  #priced: readonly Position[] = [];
  #emittedMtm: number | null = null;
  /** A pending emission of figures held back by the pace. */
  #flush: (() => void) | null = null;
  #watched = '';
  /** Something needs the figure besides the levels (an MTM alert): the held instruments stay watched. */
  #figureWanted = false;

  public constructor(deps: MtmGuardDeps) {
    this.#deps = deps;
    this.#day = istDate(deps.now());
    this.#status = this.#build(null, null, 'no positions read yet');
  }

  /** The levels and the status now. */
  public state(): MtmState {
    return { settings: this.#settings, status: structuredClone(this.#withCharges(this.#status)) };
  }

  /**
   * New levels (the settings, or the profile's stored ones at login). Saving them watches afresh:
   * a trigger of today that was dismissed, or ran, no longer holds the guard back.
   */
  public setSettings(settings: MtmSettings): void {
    this.#settings = settings;
    this.#cancelCountdown?.();
    this.#cancelCountdown = null;
    if (this.#trigger) this.#deps.onTrigger?.(null);
    this.#trigger = null;
    this.#dismissed = false;
    this.evaluate(true);
  }

  /**
   * Today's trigger as the app kept it (at login, after the levels): the day's one run has been
   * made, so the guard does not fire again after a restart. A trigger of another IST day is ignored.
   */
  public restoreTrigger(trigger: MtmTrigger | null): void {
    if (!trigger?.runId || istDate(trigger.at) !== this.#day) return;
    this.#trigger = trigger;
    this.evaluate(true);
  }

  /** A soft level's "Run now": the kill switch runs at once (a second answer starts nothing more). */
  public confirm(): MtmState {
    if (this.#trigger && this.#trigger.runId === null && !this.#dismissed) this.#run();
    return this.state();
  }

  /** A soft level's "Keep positions": no run; not watched again until the levels are saved. */
  public dismiss(): MtmState {
    if (this.#trigger && this.#trigger.runId === null) {
      this.#cancelCountdown?.();
      this.#cancelCountdown = null;
      this.#dismissed = true;
      this.evaluate(true);
    }
    return this.state();
  }

  /**
   * Keeps the held instruments' prices coming while something other than the levels needs the
   * figure (an active MTM alert), levels set or not.
   */
  public wantFigure(on: boolean): void {
    if (on === this.#figureWanted) return;
    this.#figureWanted = on;
    this.evaluate();
  }

  /**
   * The day's MTM in ₹ now, or `unknown` (an MTM alert's figure, docs/contract.md §Alerts that
   * place orders): measured as the levels are, so unknown positions or a price that is not fresh
   * give no number.
   */
  public figure(): number | 'unknown' {
    const measured = this.#measure();
    return typeof measured === 'string' ? 'unknown' : measured.mtm;
  }

  /** Stops the countdown (the core closes). */
  public close(): void {
    this.#cancelCountdown?.();
    this.#cancelCountdown = null;
    this.#flush?.();
    this.#flush = null;
  }

  /** Measures and judges now: every tick, every change of the known positions. */
  public evaluate(force = false): void {
    const now = this.#deps.now();
    const day = istDate(now);
    if (day !== this.#day) {
      this.#day = day;
      this.#peak = null;
      // A new day watches afresh; a countdown still running keeps its trigger until it runs.
      if (this.#cancelCountdown === null) {
        this.#trigger = null;
        this.#dismissed = false;
      }
    }
    const on = anyLevel(this.#settings);
    this.#watch(on || this.#figureWanted);
    // Nothing to watch: no figure is measured on the ticks.
    if (!on) {
      this.#publish(this.#build(null, null, null), force);
      return;
    }
    const measured = this.#measure();
    if (typeof measured === 'string') {
      this.#publish(this.#build(null, null, measured), force);
      return;
    }
    const levels = this.#levels();
    if (typeof levels === 'string') {
      this.#publish(this.#build(measured, null, levels), force);
      return;
    }
    const judged = judgeMtm(levels, measured.mtm, this.#peak);
    this.#peak = judged.peak;
    if (judged.hit && this.#trigger === null) {
      this.#hit(judged.hit.level, judged.hit.levelRupees, measured.mtm, now);
      force = true;
    }
    this.#publish(this.#build(measured, levels, null, judged.lockedAt), force);
  }

  // ---------------------------------------------------------------- measuring

  /** The day's figures, or why they are not known. */
  #measure(): Figures | string {
    const account = this.#deps.view.knownAccount();
    if (!account.known) {
      // Only a read makes them known again (no read yet, or a fill after it while the book may lack orders).
      this.#readAgain();
      const unknown = account.positions.find((p) => !p.known);
      return unknown && !unknown.known ? `${unknown.tradingsymbol}: ${unknown.why}` : 'positions not read yet';
    }
    const priced = this.#deps.view.pricedPositions();
    if (priced === null) {
      if (this.#deps.view.positions() === null) {
        // A fill since the last read: the read's values no longer hold until the next one.
        this.#readAgain();
        return 'positions being read after a fill';
      }
      return 'no recent price for an open position';
    }
    this.#priced = priced;
    return dayMtm(priced);
  }

  /**
   * The day's charges estimate, beside the figure: worked out only when the status goes out (at
   * most every 250 ms), not on every tick, since it walks every order of the day.
   */
  #withCharges(status: MtmStatus): MtmStatus {
    const orders = status.mtm === null ? null : this.#deps.view.orders();
    if (orders === null) return status;
    const multipliers = new Map(this.#priced.map((p) => [`${p.exchange}:${p.tradingsymbol}`, p.multiplier]));
    return { ...status, charges: dayCharges(orders, (o) => multipliers.get(`${o.exchange}:${o.tradingsymbol}`) ?? 1) };
  }

  #readAgain(): void {
    const now = this.#deps.now();
    if (this.#readingSince !== null && now - this.#readingSince < READ_AGAIN_MS) return;
    this.#readingSince = now;
    this.#deps.readPositions().then(
      () => this.evaluate(),
      // Not readable now (a 429, the broker down): asked again, ticks or not.
      () => void this.#deps.setTimer(() => this.evaluate(), READ_AGAIN_MS),
    );
  }

  /** The levels in rupees, or why not (a level in % before the opening funds are read). */
  #levels(): MtmLevels | string {
    const needsFunds = [
      this.#settings.stop,
      this.#settings.target,
      this.#settings.trail?.from,
      this.#settings.trail?.lock,
    ].some((a) => a?.unit === 'percent');
    let funds: number | null = null;
    if (needsFunds) {
      if (this.#funds?.day !== this.#day) this.#readFunds();
      funds = this.#funds?.value ?? null;
    }
    return resolveLevels(this.#settings, funds) ?? "a level in % waits for the day's opening funds to be read";
  }

  #readFunds(): void {
    const day = this.#day;
    if (this.#funds?.day === day && this.#funds.reading) return;
    this.#funds = { day, value: null, reading: true };
    this.#deps.openingFunds().then(
      (value) => {
        this.#funds = { day, value, reading: false };
        this.evaluate(true);
      },
      () => {
        // Asked again on a later tick.
        this.#funds = null;
      },
    );
  }

  #watch(on: boolean): void {
    const tokens = new Set<number>();
    if (on)
      for (const p of this.#deps.view.knownAccount().positions)
        if (p.instrumentToken !== null && (!p.known || p.quantity !== 0)) tokens.add(p.instrumentToken);
    const key = [...tokens].sort((a, b) => a - b).join(',');
    if (key === this.#watched) return;
    this.#watched = key;
    this.#deps.watch?.(tokens);
  }

  // ---------------------------------------------------------------- the run

  #hit(level: MtmLevel, levelRupees: number, mtm: number, at: number): void {
    const soft = !this.#settings.hard;
    const runsAt = soft ? at + this.#settings.countdownS * 1_000 : null;
    this.#trigger = { level, mtm, levelRupees, at, runId: null, runsAt };
    if (!soft) {
      this.#run();
      return;
    }
    this.#cancelCountdown = this.#deps.setTimer(() => {
      this.#cancelCountdown = null;
      if (!this.#dismissed) this.#run();
    }, this.#settings.countdownS * 1_000);
  }

  /** Starts the kill switch once for the trigger; a run already going is waited for, then this one starts. */
  #run(): void {
    const t = this.#trigger;
    if (!t || t.runId !== null) return;
    this.#cancelCountdown?.();
    this.#cancelCountdown = null;
    try {
      const run = this.#deps.safety.start({ kind: 'killSwitch', exitPositions: true });
      this.#trigger = { ...t, runId: run.id, runsAt: null };
      this.#deps.onTrigger?.(this.#trigger);
    } catch (err) {
      // Another run holds the runner (the trader's own kill switch, an exit): it is waited out and
      // the kill switch then runs, so the level's promise (cancel all, exit all) is kept.
      if (!(err instanceof AppError && err.info.kind === 'conflict')) throw err;
      this.#trigger = { ...t, runId: '', runsAt: null };
      void this.#deps.safety.idle().then(() => {
        if (this.#trigger?.at !== t.at) return;
        this.#trigger = { ...t, runId: null, runsAt: null };
        this.#run();
      });
    }
    this.evaluate(true);
  }

  // ---------------------------------------------------------------- the status

  #build(
    figures: Figures | null,
    levels: MtmLevels | null,
    why: string | null,
    lockedAt: number | null = null,
  ): MtmStatus {
    const on = anyLevel(this.#settings);
    const state: MtmStatus['state'] = this.#trigger
      ? this.#trigger.runId === null
        ? this.#dismissed
          ? 'dismissed'
          : 'asking'
        : 'fired'
      : !on
        ? 'off'
        : figures === null || levels === null
          ? 'unknown'
          : 'watching';
    return {
      state,
      mtm: figures?.mtm ?? null,
      realised: figures?.realised ?? null,
      unrealised: figures?.unrealised ?? null,
      charges: null,
      stop: levels?.stop ?? null,
      target: levels?.target ?? null,
      lockedAt,
      peak: this.#peak,
      why,
      trigger: this.#trigger,
      asOf: this.#deps.now(),
    };
  }

  #publish(status: MtmStatus, force: boolean): void {
    const before = this.#status;
    this.#status = status;
    const changed =
      force ||
      before.state !== status.state ||
      before.why !== status.why ||
      before.trigger !== status.trigger ||
      before.lockedAt !== status.lockedAt;
    if (!changed && status.mtm === this.#emittedMtm) return;
    const wait = this.#lastEmit + (this.#deps.emitEveryMs ?? 250) - this.#deps.now();
    if (changed || wait <= 0) {
      this.#emit();
      return;
    }
    // Figures alone changed within the pace: the latest goes out when it allows, ticks or not.
    this.#flush ??= this.#deps.setTimer(() => this.#emit(), wait);
  }

  #emit(): void {
    this.#flush?.();
    this.#flush = null;
    this.#lastEmit = this.#deps.now();
    this.#emittedMtm = this.#status.mtm;
    this.#deps.onChange?.(structuredClone(this.#withCharges(this.#status)));
  }
}
