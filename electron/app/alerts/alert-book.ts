import { randomBytes } from 'node:crypto';
import { alertMet, QUIET, type AlertDraft, type PriceAlert } from '@shared/domain/alert';
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
  readonly now?: () => number;
  readonly newId?: () => string;
}

/**
 * Price alerts of the logged-in profile (docs/contract.md §Price alerts), evaluated in main on
 * every tick of the stream — whether or not a window shows the instrument — and kept in settings
 * per profile. An alert fires once (`active` → `triggered`); editing it arms it again. Each keeps
 * how it notifies (`notify`: OS notification, sound), edited like its price.
 */
export class AlertBook {
  readonly #deps: AlertBookDeps;
  readonly #now: () => number;
  readonly #newId: () => string;
  #profile: string | null = null;
  #alerts: PriceAlert[] = [];
  /** The last price seen per instrument (what `crosses` moves from). */
  readonly #last = new Map<number, number>();
  #saving: Promise<unknown> = Promise.resolve();

  public constructor(deps: AlertBookDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    this.#newId = deps.newId ?? (() => `al-${randomBytes(6).toString('hex')}`);
  }

  /** Loads a profile's alerts (at login) and watches their instruments. */
  public async load(profileKey: string): Promise<void> {
    this.#profile = profileKey;
    this.#alerts = (await this.#deps.settings.read()).alerts?.[profileKey] ?? [];
    this.#last.clear();
    this.#changed(false);
  }

  /** The profile's alerts, oldest first. */
  public list(): PriceAlert[] {
    return [...this.#alerts];
  }

  /** A new alert on an instrument whose quote main just read (unknown instruments are refused by the caller). */
  public async create(draft: AlertDraft, quote: MarketQuote): Promise<PriceAlert> {
    if (this.#alerts.length >= MAX_ALERTS) {
      throw new AppError({ kind: 'bad_request', message: `At most ${MAX_ALERTS} alerts`, field: 'instrumentToken' });
    }
    const alert: PriceAlert = {
      id: this.#newId(),
      instrumentToken: quote.instrumentToken,
      exchange: quote.exchange,
      tradingsymbol: quote.tradingsymbol,
      condition: draft.condition,
      price: draft.price,
      note: draft.note ?? null,
      state: 'active',
      createdAt: this.#now(),
      triggeredAt: null,
      triggeredPrice: null,
      notify: draft.notify ?? QUIET,
    };
    if (quote.lastPrice > 0 && !this.#last.has(quote.instrumentToken)) {
      this.#last.set(quote.instrumentToken, quote.lastPrice);
    }
    this.#alerts = [...this.#alerts, alert];
    await this.#changed(true);
    return alert;
  }

  /** Changes an alert's condition, price or note, and arms it again. */
  public async update(id: string, change: Omit<AlertDraft, 'instrumentToken'>): Promise<PriceAlert> {
    const old = this.#get(id);
    const next: PriceAlert = {
      ...old,
      condition: change.condition,
      price: change.price,
      note: change.note ?? old.note,
      notify: change.notify ?? old.notify,
      state: 'active',
      triggeredAt: null,
      triggeredPrice: null,
    };
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

  /** Evaluates every active alert of the tick's instrument; fires those whose condition is met. */
  public onTick(tick: Tick): void {
    const previous = this.#last.get(tick.instrumentToken) ?? null;
    this.#last.set(tick.instrumentToken, tick.lastPrice);
    if (tick.lastPrice <= 0) return;
    let fired = false;
    this.#alerts = this.#alerts.map((a) => {
      if (a.state !== 'active' || a.instrumentToken !== tick.instrumentToken) return a;
      if (!alertMet(a, previous, tick.lastPrice)) return a;
      fired = true;
      // On the market's clock, the tick's own stamp, as every time the desk shows (docs/desk.md §One clock).
      const at = Date.parse(tick.ts);
      const triggeredAt = Number.isFinite(at) && at >= 0 ? at : this.#now();
      const done: PriceAlert = { ...a, state: 'triggered', triggeredAt, triggeredPrice: tick.lastPrice };
      this.#deps.onFired(done);
      return done;
    });
    if (fired) void this.#changed(true).catch(() => undefined);
  }

  #get(id: string): PriceAlert {
    const a = this.#alerts.find((x) => x.id === id);
    if (!a) throw new AppError({ kind: 'not_found', message: `No alert ${id}`, field: 'id' });
    return a;
  }

  /** Tells the renderer, watches the active alerts' instruments and (when asked) saves, one save at a time. */
  #changed(save: boolean): Promise<void> {
    this.#deps.watch([...new Set(this.#alerts.filter((a) => a.state === 'active').map((a) => a.instrumentToken))]);
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
