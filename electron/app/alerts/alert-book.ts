import { randomBytes } from 'node:crypto';
import {
  conditionMet,
  PRICE_BASIS,
  QUIET,
  type AlertChange,
  type AlertDraft,
  type AlertOrderOutcome,
  type PriceAlert,
  type Reading,
} from '@shared/domain/alert';
import type { MarketQuote, Tick } from '@shared/domain/market';
import { AppError } from '@shared/ipc/app-error';
import type { SettingsStore } from '../settings/settings-store';

/** The most alerts one profile keeps. */
export const MAX_ALERTS = 200;

/** What the book needs around it. */
export interface AlertBookDeps {
  readonly settings: SettingsStore;
  /** Replaces the instruments main itself watches for alerts (the stream follows the union with the UI's). */
  readonly watch: (tokens: readonly number[]) => void;
  /** An alert fired (`alerts.fired`). */
  readonly onFired: (alert: PriceAlert) => void;
  /** The list changed (`alerts.changed`). */
  readonly onChanged: (alerts: PriceAlert[]) => void;
  /**
   * The level of a study alert at this tick (`study-feed.ts`); null while unknown. Absent: study
   * alerts never fire.
   */
  readonly levelOf?: (alert: PriceAlert, tick: Tick) => number | null;
  /**
   * The account's MTM for the day in ₹, or `unknown` while main does not know its positions
   * (docs/contract.md §Alerts that place orders): unknown never fires. Absent: always unknown.
   */
  readonly mtmOf?: () => number | 'unknown';
  /** Whether an active alert watches the day's MTM: main keeps the figure measured while one does. */
  readonly watchMtm?: (on: boolean) => void;
  /**
   * Places a fired alert's orders once (`alert-orders.ts`) and answers what they came to. Absent:
   * an alert's orders are not placed, and its outcome says so.
   */
  readonly placeOrders?: (alert: PriceAlert) => Promise<AlertOrderOutcome>;
  /** A fired alert's orders came to their outcome (`alerts.ordered`). */
  readonly onOrdered?: (alert: PriceAlert) => void;
  readonly now?: () => number;
  readonly newId?: () => string;
}

/** A firing whose orders were being placed when the app stopped. */
const INTERRUPTED: AlertOrderOutcome = {
  state: 'unconfirmed',
  detail: 'The app stopped while placing these orders: check the Orders list and the unconfirmed placements',
  legs: [],
};

/** Where a fired alert's orders stand while main sends them. */
const PLACING: AlertOrderOutcome = { state: 'placing', detail: 'Placing…', legs: [] };

/**
 * Price alerts of the logged-in profile (docs/contract.md §Price alerts), evaluated in main on
 * every tick of the stream — whether or not a window shows the instrument — and kept in settings
 * per profile. An alert fires once (`active` → `triggered`, at once, before anything else runs, so
 * a repeated tick finds it fired); editing it arms it again. Each keeps how it notifies (`notify`:
 * OS notification, sound), edited like its price, and the orders it places when it fires with
 * their outcome (docs/contract.md §Alerts that place orders).
 */
export class AlertBook {
  readonly #deps: AlertBookDeps;
  readonly #now: () => number;
  readonly #newId: () => string;
  #profile: string | null = null;
  #alerts: PriceAlert[] = [];
  /** The last price seen per instrument (what a price alert's `crosses` moves from). */
  readonly #last = new Map<number, number>();
  /** The last reading of each study and MTM alert (their levels move, so a cross is per alert). */
  readonly #readings = new Map<string, Reading>();
  #saving: Promise<unknown> = Promise.resolve();

  public constructor(deps: AlertBookDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    this.#newId = deps.newId ?? (() => `al-${randomBytes(6).toString('hex')}`);
  }

  /** Loads a profile's alerts (at login) and watches their instruments. */
  public async load(profileKey: string): Promise<void> {
    this.#profile = profileKey;
    // Orders still being placed when the app stopped: main does not know what they came to.
    this.#alerts = ((await this.#deps.settings.read()).alerts?.[profileKey] ?? []).map((a) =>
      a.outcome?.state === 'placing' ? { ...a, outcome: INTERRUPTED } : a,
    );
    this.#last.clear();
    this.#readings.clear();
    this.#changed(false);
  }

  /**
   * Resolves once every change made so far is in `settings.json`. A fired alert is saved in the
   * background (the tick does not wait for the disk); closing the app waits here, so a restart finds
   * it fired rather than armed to fire again (docs/contract.md §Price alerts). An outcome still
   * awaited from the broker is saved when it arrives, not waited for here.
   */
  public idle(): Promise<void> {
    return this.#saving.then(() => undefined);
  }

  /** The profile's alerts, oldest first. */
  public list(): PriceAlert[] {
    return [...this.#alerts];
  }

  /**
   * A new alert on an instrument whose quote main just read (unknown instruments are refused by
   * the caller), or on the account's MTM (`quote` null).
   */
  public async create(draft: AlertDraft, quote: MarketQuote | null): Promise<PriceAlert> {
    if (this.#alerts.length >= MAX_ALERTS) {
      throw new AppError({ kind: 'bad_request', message: `At most ${MAX_ALERTS} alerts`, field: 'instrumentToken' });
    }
    const now = this.#now();
    const alert: PriceAlert = {
      id: this.#newId(),
      instrumentToken: quote?.instrumentToken ?? null,
      exchange: quote?.exchange ?? null,
      tradingsymbol: quote?.tradingsymbol ?? null,
      condition: draft.condition,
      price: draft.price ?? null,
      basis: draft.basis ?? PRICE_BASIS,
      note: draft.note ?? null,
      state: 'active',
      createdAt: now,
      armedAt: now,
      triggeredAt: null,
      triggeredPrice: null,
      notify: draft.notify ?? QUIET,
      orders: draft.orders ?? [],
      outcome: null,
    };
    if (quote && quote.lastPrice > 0 && !this.#last.has(quote.instrumentToken)) {
      this.#last.set(quote.instrumentToken, quote.lastPrice);
    }
    this.#alerts = [...this.#alerts, alert];
    await this.#changed(true);
    return alert;
  }

  /**
   * Changes an alert's condition, level, note or orders, and arms it again: a new firing, whose
   * orders are placed anew (`alert-orders.ts`, request ids from `armedAt`).
   */
  public async update(id: string, change: AlertChange): Promise<PriceAlert> {
    const old = this.#get(id);
    const basis = change.basis ?? old.basis;
    if ((basis.kind === 'mtm') !== (old.basis.kind === 'mtm')) {
      throw new AppError({
        kind: 'bad_request',
        message: 'An alert cannot change between the MTM and an instrument: make a new one',
        field: 'basis',
      });
    }
    const next: PriceAlert = {
      ...old,
      condition: change.condition,
      price: change.price ?? null,
      basis,
      note: change.note ?? old.note,
      notify: change.notify ?? old.notify,
      orders: change.orders ?? old.orders,
      state: 'active',
      armedAt: Math.max(this.#now(), (old.armedAt ?? old.createdAt) + 1),
      triggeredAt: null,
      triggeredPrice: null,
      outcome: null,
    };
    this.#readings.delete(id);
    this.#alerts = this.#alerts.map((a) => (a.id === id ? next : a));
    await this.#changed(true);
    return next;
  }

  /** Deletes an alert (`not_found` naming `id` when there is none). */
  public async remove(id: string): Promise<void> {
    this.#get(id);
    this.#alerts = this.#alerts.filter((a) => a.id !== id);
    await this.#changed(true);
  }

  /**
   * Evaluates every active alert of the tick's instrument, and every MTM alert (the MTM moves with
   * any price); fires those whose condition is met, and places their orders.
   */
  public onTick(tick: Tick): void {
    const previous = this.#last.get(tick.instrumentToken) ?? null;
    this.#last.set(tick.instrumentToken, tick.lastPrice);
    if (tick.lastPrice <= 0) return;
    const mtm = this.#alerts.some((a) => a.state === 'active' && a.basis.kind === 'mtm')
      ? (this.#deps.mtmOf?.() ?? 'unknown')
      : 'unknown';
    const fired: PriceAlert[] = [];
    this.#alerts = this.#alerts.map((a) => {
      if (a.state !== 'active') return a;
      const value = this.#met(a, tick, previous, mtm);
      if (value === null) return a;
      // On the market's clock, the tick's own stamp, as every time the desk shows (docs/desk.md §One clock).
      const at = Date.parse(tick.ts);
      const triggeredAt = Number.isFinite(at) && at >= 0 ? at : this.#now();
      const done: PriceAlert = {
        ...a,
        state: 'triggered',
        triggeredAt,
        triggeredPrice: value,
        outcome: a.orders.length > 0 ? PLACING : null,
      };
      fired.push(done);
      return done;
    });
    if (fired.length === 0) return;
    // Fired and kept as such before anything else: a repeated tick or a second evaluation finds it
    // triggered at once, and its orders go only once the firing is on disk — an app that died
    // between the two would otherwise find the alert armed at the next start and fire it again,
    // after the ledger had stopped remembering the firing's request ids. A save that fails still
    // places (the trader armed it), and the ledger's request ids cover a restart soon after.
    const saved = this.#changed(true).catch(() => undefined);
    for (const a of fired) {
      this.#deps.onFired(a);
      if (a.orders.length > 0) void saved.then(() => this.#placeOrders(a));
    }
  }

  /** The value that meets `a`'s condition at this tick (the LTP, or the MTM), or null. */
  #met(a: PriceAlert, tick: Tick, previous: number | null, mtm: number | 'unknown'): number | null {
    if (a.basis.kind === 'mtm') {
      // Unknown is never a figure (docs/contract.md §Alerts that place orders): it never fires.
      if (mtm === 'unknown' || a.price === null) return null;
      return this.#crossed(a, { value: mtm, level: a.price }) ? mtm : null;
    }
    if (a.instrumentToken !== tick.instrumentToken) return null;
    if (a.basis.kind === 'price') {
      if (a.price === null) return null;
      const before = previous === null ? null : { value: previous, level: a.price };
      return conditionMet(a.condition, before, { value: tick.lastPrice, level: a.price }) ? tick.lastPrice : null;
    }
    const level = this.#deps.levelOf?.(a, tick) ?? null;
    if (level === null) return null;
    return this.#crossed(a, { value: tick.lastPrice, level }) ? tick.lastPrice : null;
  }

  /** Whether `now` meets the alert's condition against its own last reading, kept for the next. */
  #crossed(a: PriceAlert, now: Reading): boolean {
    const before = this.#readings.get(a.id) ?? null;
    this.#readings.set(a.id, now);
    return conditionMet(a.condition, before, now);
  }

  /** Places a fired alert's orders and keeps their outcome on it (unless it was edited meanwhile). */
  #placeOrders(fired: PriceAlert): void {
    const place =
      this.#deps.placeOrders ??
      (() =>
        Promise.resolve<AlertOrderOutcome>({ state: 'refused', detail: 'Nothing placed: not logged in', legs: [] }));
    void place(fired)
      .catch((): AlertOrderOutcome => ({
        state: 'unconfirmed',
        detail: 'Not yet confirmed: check the Orders list and the unconfirmed placements',
        legs: [],
      }))
      .then((outcome) => {
        const now = this.#alerts.find((x) => x.id === fired.id);
        if (!now || now.armedAt !== fired.armedAt || now.state !== 'triggered') return;
        const settled: PriceAlert = { ...now, outcome };
        this.#alerts = this.#alerts.map((x) => (x.id === fired.id ? settled : x));
        this.#deps.onOrdered?.(settled);
        return this.#changed(true);
      })
      .catch(() => undefined);
  }

  #get(id: string): PriceAlert {
    const a = this.#alerts.find((x) => x.id === id);
    if (!a) throw new AppError({ kind: 'not_found', message: `No alert ${id}`, field: 'id' });
    return a;
  }

  /** Tells the renderer, watches the active alerts' instruments and (when asked) saves, one save at a time. */
  #changed(save: boolean): Promise<void> {
    const watched = this.#alerts.flatMap((a) =>
      a.state === 'active' && a.instrumentToken !== null ? [a.instrumentToken] : [],
    );
    this.#deps.watch([...new Set(watched)]);
    this.#deps.watchMtm?.(this.#alerts.some((a) => a.state === 'active' && a.basis.kind === 'mtm'));
    this.#deps.onChanged(this.list());
    if (!save || this.#profile === null) return Promise.resolve();
    const key = this.#profile;
    const alerts = this.list();
    const run = this.#saving.then(() =>
      this.#deps.settings.update((s) => ({ ...s, alerts: { ...s.alerts, [key]: alerts } })),
    );
    this.#saving = run.catch(() => undefined);
    return run.then(() => undefined);
  }
}
