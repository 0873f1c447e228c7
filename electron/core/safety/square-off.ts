import type { Exchange } from '@shared/domain/instrument';
import type { MarketStatus } from '@shared/domain/market';
import { isWorking } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import type { SafetyRun } from '@shared/domain/safety-run';
import type {
  SquareOffOutcome,
  SquareOffPhase,
  SquareOffSettings,
  SquareOffState,
  StoredSquareOff,
} from '@shared/domain/square-off';
import { AppError } from '@shared/ipc/app-error';
import { toIstIso } from '@shared/lib/ist-time';
import {
  DEFAULT_SQUARE_OFF,
  squareOffDecision,
  squareOffPlan,
  type SquareOffDecision,
  type SquareOffPlan,
} from '@shared/trading/square-off-rules';
import type { Broker, ReadOptions } from '../../broker/broker';
import { systemClock, type Clock } from '../clock';
import type { DeskView } from '../desk-view';
import type { SafetyRunner } from './safety-runner';

/** What the square-off needs. */
export interface SquareOffDeps {
  /** The broker's calendar and the market's clock (docs/api.md §Sessions and the calendar). */
  readonly marketStatus: () => Promise<MarketStatus>;
  /** The exchanges with intraday (MIS) positions or working MIS orders now; throws when not known. */
  readonly exposure: () => Promise<ReadonlySet<Exchange>>;
  /** The kill switch's runner: the square-off is one of its runs, never a second exit path. */
  readonly safety: Pick<SafetyRunner, 'start' | 'ended'>;
  /** What was kept (null: nothing yet, the defaults). */
  readonly load: () => Promise<StoredSquareOff | null>;
  readonly save: (stored: StoredSquareOff) => Promise<void>;
  /** Told the state at every change (`squareOff.changed`). */
  readonly onChange?: (state: SquareOffState) => void;
  /** The warning two minutes before, once per session and exchange: the OS notification. */
  readonly onWarning?: (text: { readonly title: string; readonly body: string }) => void;
  /** The machine's clock (tests inject a paper clock). */
  readonly clock?: Clock;
  /** How often it looks (default 1 s). */
  readonly everyMs?: number;
  /** How often the market status is read again (default 10 s): a jump of the market's clock is seen within it. */
  readonly statusEveryMs?: number;
  /** How long an exposure read is used (default 5 s). */
  readonly exposureEveryMs?: number;
}

const hhmmss = (ms: number): string => toIstIso(ms).slice(11, 19);

/**
 * Square-off at a time (docs/contract.md §Risk guard): main watches the market's clock against
 * the broker's calendar and, at each exchange's chosen time, starts the kill switch's run limited
 * to that exchange's intraday positions and working intraday orders — with a warning two minutes
 * before, whether a window is shown or not. What is done for a session is kept, so a restart
 * never runs it twice; started after the time with intraday positions still open, it asks.
 */
export class SquareOff {
  readonly #deps: SquareOffDeps;
  readonly #clock: Clock;
  #stored: StoredSquareOff = { settings: DEFAULT_SQUARE_OFF, doneOn: {}, last: null };
  #loaded: Promise<void> | null = null;
  #status: { readonly value: MarketStatus; readonly readAt: number } | null = null;
  #exposure: {
    readonly value: ReadonlySet<Exchange> | null;
    readonly readAt: number;
    readonly marketAt: number;
  } | null = null;
  /** When this start began watching, on the market's clock. */
  #watchingSince: number | null = null;
  /** The exchanges the square-off asks about, and the session. */
  #asking: { readonly exchanges: Exchange[]; readonly plan: SquareOffPlan } | null = null;
  #running: { readonly runId: string; readonly exchanges: Exchange[]; readonly plan: SquareOffPlan } | null = null;
  readonly #warned = new Set<string>();
  #state: SquareOffState | null = null;
  #timer: Promise<void> | null = null;
  #closed = false;
  #ticking: Promise<void> | null = null;

  public constructor(deps: SquareOffDeps) {
    this.#deps = deps;
    this.#clock = deps.clock ?? systemClock;
  }

  /** Starts watching: one look now, then one every `everyMs`, until `close`. */
  public start(): void {
    if (this.#timer) return;
    const loop = async (): Promise<void> => {
      while (!this.#closed) {
        await this.tick().catch(() => undefined);
        await this.#clock.sleep(this.#deps.everyMs ?? 1_000);
      }
    };
    this.#timer = loop();
  }

  public close(): void {
    this.#closed = true;
  }

  /** The state now (after the kept state is loaded). */
  public async state(): Promise<SquareOffState> {
    await this.#load();
    return this.#state ?? this.#compose('off', null);
  }

  /** The trader's settings: kept, then in force at once. */
  public async set(settings: SquareOffSettings): Promise<SquareOffState> {
    await this.#load();
    this.#stored = { ...this.#stored, settings };
    await this.#deps.save(this.#stored);
    if (!settings.enabled) this.#asking = null;
    // A new time is a new plan: its warning is due again.
    this.#warned.clear();
    this.#status = null;
    await this.tick();
    return this.state();
  }

  /**
   * The trader's answer when it asks (started after the time): `run` squares off now; otherwise
   * the session's square-off is declined and kept so. Without a question pending (answered
   * already, from another window): the state as it is.
   */
  public async answer(run: boolean): Promise<SquareOffState> {
    await this.#load();
    const ask = this.#asking;
    if (ask) {
      this.#asking = null;
      if (run) this.#begin(ask.exchanges, ask.plan);
      else
        await this.#done(ask.exchanges, ask.plan, {
          date: ask.plan.date,
          at: this.#marketNow(),
          exchanges: ask.exchanges,
          positions: 0,
          state: 'declined',
          detail: 'Not squared off: you chose to keep the intraday positions',
        });
    }
    await this.tick();
    return this.state();
  }

  /** One look: plans from the calendar, decisions from the rules, and what they call for. One at a time. */
  public tick(): Promise<void> {
    this.#ticking ??= this.#look().finally(() => {
      this.#ticking = null;
    });
    return this.#ticking;
  }

  async #look(): Promise<void> {
    await this.#load();
    const settings = this.#stored.settings;
    if (!settings.enabled) return this.#publish(this.#compose('off', null));
    const status = await this.#marketStatus();
    if (!status) return this.#publish(this.#compose(this.#running ? 'running' : 'off', null));
    const now = this.#marketNow();
    this.#watchingSince ??= now;

    const plans = status.value.exchanges.map((s) =>
      squareOffPlan(s.exchange, settings.times[s.exchange], {
        phase: s.phase,
        nextOpen: Date.parse(s.nextOpen),
        nextClose: Date.parse(s.nextClose),
      }),
    );
    const decide = (plan: SquareOffPlan, exposed: boolean | null): SquareOffDecision =>
      squareOffDecision({
        now,
        plan,
        doneOn: this.#stored.doneOn[plan.exchange] ?? null,
        watchingSince: this.#watchingSince ?? now,
        exposed,
      });
    // The broker is asked what is open only around a square-off's time.
    const due = plans.some((p) => decide(p, null) !== 'wait' && decide(p, null) !== 'done');
    // A read from before a time that has come cannot say what is open at it (a position opened
    // seconds before would be left open, and the session recorded as having nothing to do).
    const reached = plans.filter((p) => now >= p.at && now < p.close).map((p) => p.at);
    const exposure = due ? await this.#exposureNow(reached.length > 0 ? Math.max(...reached) : null) : null;
    const decided = plans.map((p) => ({
      plan: p,
      decision: decide(p, exposure === null ? null : exposure.has(p.exchange)),
    }));

    const busy = (ex: Exchange): boolean =>
      (this.#running?.exchanges.includes(ex) ?? false) || (this.#asking?.exchanges.includes(ex) ?? false);
    // Nothing open at the time: the session is done with nothing to do.
    const idle = decided.filter((d) => d.decision === 'done' && this.#stored.doneOn[d.plan.exchange] !== d.plan.date);
    const nothingOpen = idle.filter((d) => now >= d.plan.at && now < d.plan.close && !busy(d.plan.exchange));
    if (nothingOpen.length > 0 && nothingOpen[0]) {
      const plan = nothingOpen[0].plan;
      await this.#done(
        nothingOpen.map((d) => d.plan.exchange),
        plan,
        {
          date: plan.date,
          at: plan.at,
          exchanges: nothingOpen.map((d) => d.plan.exchange),
          positions: 0,
          state: 'done',
          detail: 'Nothing intraday was open',
        },
      );
    }

    const toRun = decided.filter((d) => d.decision === 'run' && !busy(d.plan.exchange));
    if (toRun.length > 0 && toRun[0] && !this.#running)
      this.#begin(
        toRun.map((d) => d.plan.exchange),
        toRun[0].plan,
      );
    const toAsk = decided.filter((d) => d.decision === 'ask' && !busy(d.plan.exchange));
    if (toAsk.length > 0 && toAsk[0] && !this.#asking && !this.#running)
      this.#asking = { exchanges: toAsk.map((d) => d.plan.exchange), plan: toAsk[0].plan };

    const warning = decided.filter((d) => d.decision === 'warn');
    for (const w of warning)
      this.#warn(
        w.plan,
        warning.map((d) => d.plan),
      );

    // While warning, the plan shown is the warned one, naming only the exchanges with something open.
    const ahead = warning.length > 0 ? warning : decided.filter((d) => d.decision === 'wait' || d.decision === 'warn');
    const first = ahead.reduce<SquareOffPlan | null>((a, d) => (a && a.at <= d.plan.at ? a : d.plan), null);
    const next = first
      ? {
          date: first.date,
          at: first.at,
          warnAt: first.warnAt,
          exchanges: ahead.filter((d) => d.plan.at === first.at).map((d) => d.plan.exchange),
        }
      : null;
    // A session whose square-off is over, still trading: the header shows how it went until the close.
    const over = decided.some((d) => this.#stored.doneOn[d.plan.exchange] === d.plan.date && now < d.plan.close);
    const phase: SquareOffPhase = this.#running
      ? 'running'
      : this.#asking
        ? 'asking'
        : warning.length > 0
          ? 'warning'
          : over && this.#stored.last
            ? 'done'
            : next
              ? 'waiting'
              : 'off';
    this.#publish(this.#compose(phase, next));
  }

  /** Starts the kill switch's run over the exchanges' intraday positions; a run already going (a kill switch) is waited for. */
  #begin(exchanges: Exchange[], plan: SquareOffPlan): void {
    let run: SafetyRun;
    try {
      run = this.#deps.safety.start({ kind: 'squareOff', exchanges });
    } catch (err) {
      // Another run is going: the next look tries again (a run is never started twice).
      if (err instanceof AppError && err.info.kind === 'conflict') return;
      throw err;
    }
    const running = { runId: run.id, exchanges, plan };
    this.#running = running;
    const startedAt = this.#marketNow();
    // Its own run's end: a kill switch queued behind it may already be running by then.
    void this.#deps.safety
      .ended(run.id)
      .then(async (end) => {
        const exits = end ? end.steps.filter((s) => s.kind === 'exit') : [];
        const positions = new Set(exits.map((s) => `${s.exchange}:${s.tradingsymbol}`)).size;
        const done = end?.state === 'done';
        await this.#done(exchanges, plan, {
          date: plan.date,
          at: startedAt,
          exchanges,
          positions,
          state: done ? 'done' : 'incomplete',
          detail: end ? end.detail : 'The run ended without a result: check your positions',
        });
      })
      .finally(() => {
        if (this.#running === running) this.#running = null;
        void this.tick();
      });
  }

  async #done(exchanges: readonly Exchange[], plan: SquareOffPlan, outcome: SquareOffOutcome): Promise<void> {
    const doneOn = { ...this.#stored.doneOn };
    for (const ex of exchanges) doneOn[ex] = plan.date;
    // "Nothing was open" on one exchange never hides what a run did that day on another.
    const last = this.#stored.last;
    const keep = outcome.positions === 0 && outcome.state === 'done' && last?.date === outcome.date;
    this.#stored = { ...this.#stored, doneOn, last: keep ? last : outcome };
    await this.#deps.save(this.#stored);
  }

  #warn(plan: SquareOffPlan, all: readonly SquareOffPlan[]): void {
    const key = `${plan.exchange}:${plan.date}:${plan.at}`;
    if (this.#warned.has(key)) return;
    const same = all.filter((p) => p.at === plan.at);
    for (const p of same) this.#warned.add(`${p.exchange}:${p.date}:${p.at}`);
    this.#deps.onWarning?.({
      title: `Square-off at ${hhmmss(plan.at).slice(0, 5)}`,
      body: `Intraday (MIS) positions on ${same.map((p) => p.exchange).join(', ')} are exited at ${hhmmss(plan.at)} IST, and their working orders cancelled.`,
    });
  }

  /** The market's clock now: the status's time carried forward at the market's speed. */
  #marketNow(): number {
    const s = this.#status;
    const now = this.#clock.now();
    if (!s) return now;
    return Date.parse(s.value.now) + (now - s.readAt) * s.value.speed;
  }

  async #marketStatus(): Promise<{ value: MarketStatus; readAt: number } | null> {
    const now = this.#clock.now();
    if (!this.#status || now - this.#status.readAt >= (this.#deps.statusEveryMs ?? 10_000)) {
      try {
        this.#status = { value: await this.#deps.marketStatus(), readAt: this.#clock.now() };
      } catch {
        // The last calendar stands in until the broker answers again.
      }
    }
    return this.#status;
  }

  /** What is open intraday, read at most every `exposureEveryMs`, and afresh when the last read was before `notBefore` (market time). */
  async #exposureNow(notBefore: number | null): Promise<ReadonlySet<Exchange> | null> {
    const now = this.#clock.now();
    const stale =
      !this.#exposure ||
      now - this.#exposure.readAt >= (this.#deps.exposureEveryMs ?? 5_000) ||
      (notBefore !== null && this.#exposure.marketAt < notBefore);
    if (stale) {
      const marketAt = this.#marketNow();
      let value: ReadonlySet<Exchange> | null;
      try {
        value = await this.#deps.exposure();
      } catch {
        value = null;
      }
      this.#exposure = { value, readAt: this.#clock.now(), marketAt };
    }
    return this.#exposure!.value;
  }

  #compose(phase: SquareOffPhase, next: SquareOffState['next']): SquareOffState {
    return {
      settings: this.#stored.settings,
      phase,
      next,
      marketLeadMs: Math.round(this.#marketNow() - this.#clock.now()),
      last: this.#stored.last,
    };
  }

  #publish(state: SquareOffState): void {
    const same = this.#state !== null && JSON.stringify(this.#state) === JSON.stringify(state);
    this.#state = state;
    if (!same) this.#deps.onChange?.(state);
  }

  #load(): Promise<void> {
    this.#loaded ??= this.#deps.load().then((s) => {
      if (s) this.#stored = s;
    });
    return this.#loaded;
  }
}

/** What the exposure is read from: main's own view, and the broker when that is not fresh. */
export interface IntradayAccount {
  readonly view: Pick<DeskView, 'positions' | 'workingOrders'>;
  readonly broker: Pick<Broker, 'listOrders'>;
  readPositions(options?: ReadOptions): Promise<readonly Position[]>;
}

/**
 * The exchanges with intraday positions or working intraday orders: main's own view where it is
 * fresh, else read (a read that fails makes the exposure unknown, and the square-off treats
 * unknown as open).
 */
export async function intradayExposure(account: IntradayAccount): Promise<ReadonlySet<Exchange>> {
  const [positions, orders] = await Promise.all([
    account.view.positions() ?? account.readPositions({ urgent: true }),
    account.view.workingOrders() ?? account.broker.listOrders(undefined, { urgent: true }),
  ]);
  const out = new Set<Exchange>();
  for (const p of positions) if (p.product === 'MIS' && p.quantity !== 0) out.add(p.exchange);
  for (const o of orders) if (o.product === 'MIS' && isWorking(o.status)) out.add(o.exchange);
  return out;
}
