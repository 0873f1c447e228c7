import type { Exchange, Instrument } from '@shared/domain/instrument';
import type { Broker } from '../../broker/broker';

/**
 * The instruments the broker trades, fetched once per session and looked up by symbol.
 *
 * The main process needs each order's lot size, tick size and freeze limit to apply the
 * shared trading rules before sending (docs/money-path.md, "Exactly-once orders"); asking the broker per order would cost a
 * request per click. A miss refetches once, in case the universe changed since login.
 */
export class InstrumentCatalog {
  readonly #broker: Broker;
  #bySymbol: Promise<{ list: readonly Instrument[]; map: ReadonlyMap<string, Instrument> }> | null = null;

  public constructor(broker: Broker) {
    this.#broker = broker;
  }

  /** The instrument traded as `tradingsymbol` on `exchange`, or undefined. */
  public async find(exchange: Exchange, tradingsymbol: string): Promise<Instrument | undefined> {
    const key = `${exchange}:${tradingsymbol}`;
    const hit = (await this.#load()).map.get(key);
    if (hit) return hit;
    this.#bySymbol = null;
    return (await this.#load()).map.get(key);
  }

  /**
   * The universe as read at login (of one exchange when given): every window's instrument list
   * comes from what main already holds, not from another read of the broker (docs/workstation.md
   * §What a pop-out costs).
   */
  public async list(exchange?: Exchange): Promise<readonly Instrument[]> {
    const { list } = await this.#load();
    return exchange === undefined ? list : list.filter((i) => i.exchange === exchange);
  }

  /**
   * Starts loading the universe now (at login), so the first click is checked at once and does
   * not depend on the broker answering a large list at that moment. Failures are retried by
   * the next `find`.
   */
  public warm(): void {
    this.#load().catch(() => undefined);
  }

  /** Forgets the cached universe (a new session). */
  public reset(): void {
    this.#bySymbol = null;
  }

  #load(): Promise<{ list: readonly Instrument[]; map: ReadonlyMap<string, Instrument> }> {
    this.#bySymbol ??= this.#broker.listInstruments().then(
      (list) => ({ list, map: new Map(list.map((i) => [`${i.exchange}:${i.tradingsymbol}`, i])) }),
      (err: unknown) => {
        this.#bySymbol = null;
        throw err;
      },
    );
    return this.#bySymbol;
  }
}
