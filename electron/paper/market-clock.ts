import { openMarketStart } from './calendar';

/**
 * The market clock (docs/api.md §Sessions and the calendar): the time every part of the paper
 * market reads — ticks, sessions, order and trade times, candles, the turn of the day, expiries.
 *
 * It runs off a base clock (real time, or a test's injected clock) from an anchor at a speed:
 * market time = start + (base − base at the anchor) × speed. A new user's default starts inside
 * an open session whatever the hour (`openMarketStart`); `wall` is the base clock itself. It
 * never runs backwards: a jump to an earlier time is refused.
 */

/** How the clock is chosen: `wall`, or a start time and speed (defaults: an open market, 1×). */
export type MarketClockSpec = 'wall' | { readonly at?: number; readonly speed?: number };

/** The most market seconds per real second a clock may run at. */
export const MAX_SPEED = 3600;

/** Why a clock change was refused, naming the field at fault. */
export class ClockError extends Error {
  constructor(
    readonly field: 'at' | 'speed' | 'wall',
    message: string,
  ) {
    super(message);
  }
}

export class MarketClock {
  #simulated: boolean;
  #start: number;
  #baseAtStart: number;
  #speed: number;

  /**
   * `notBefore`: the latest market time already recorded (a journal's), which a default clock
   * never starts before.
   */
  constructor(
    private readonly base: () => number,
    spec?: MarketClockSpec,
    notBefore = 0,
  ) {
    const now = base();
    this.#baseAtStart = now;
    if (spec === 'wall') {
      this.#simulated = false;
      this.#start = now;
      this.#speed = 1;
      return;
    }
    this.#simulated = true;
    this.#speed = MarketClock.checkSpeed(spec?.speed ?? 1);
    this.#start = spec?.at ?? Math.max(openMarketStart(now), notBefore > 0 ? openMarketStart(notBefore) : 0);
  }

  private static checkSpeed(speed: number): number {
    if (!Number.isFinite(speed) || speed <= 0 || speed > MAX_SPEED)
      throw new ClockError('speed', `must be above 0 and at most ${MAX_SPEED}`);
    return speed;
  }

  /** Market time now, epoch ms. */
  now(): number {
    if (!this.#simulated) return this.base();
    return Math.floor(this.#start + (this.base() - this.#baseAtStart) * this.#speed);
  }

  get simulated(): boolean {
    return this.#simulated;
  }

  get speed(): number {
    return this.#simulated ? this.#speed : 1;
  }

  /**
   * Moves the clock to `at` and/or sets its speed, or switches to the wall clock. Refused (and
   * nothing changes) when it would run backwards or the speed is out of range.
   */
  set(change: { readonly at?: number; readonly speed?: number; readonly wall?: boolean }): void {
    const now = this.now();
    if (change.wall) {
      const wall = this.base();
      if (wall < now)
        throw new ClockError(
          'wall',
          'the wall clock is behind the market clock; the market clock never runs backwards',
        );
      this.#simulated = false;
      return;
    }
    const speed = MarketClock.checkSpeed(change.speed ?? this.speed);
    const at = change.at ?? now;
    if (at < now) throw new ClockError('at', 'is before the market clock; it only moves forward');
    this.#simulated = true;
    this.#start = at;
    this.#baseAtStart = this.base();
    this.#speed = speed;
  }
}

/**
 * Reads `--clock`: `wall`, or an ISO time with an offset and an optional speed
 * (`2026-11-24T09:14:50+05:30,60`). Throws a ClockError saying what is wrong.
 */
export function parseClockSpec(text: string): MarketClockSpec {
  if (text === 'wall') return 'wall';
  const [iso = '', speedText] = text.split(',');
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(iso) ? Date.parse(iso) : NaN;
  if (Number.isNaN(at))
    throw new ClockError(
      'at',
      `must be wall or a time like 2026-11-24T09:14:50+05:30[,SPEED], not ${text.slice(0, 60)}`,
    );
  if (speedText === undefined) return { at };
  const speed = Number(speedText);
  if (!Number.isFinite(speed) || speed <= 0 || speed > MAX_SPEED)
    throw new ClockError('speed', `must be above 0 and at most ${MAX_SPEED}, not ${speedText.slice(0, 20)}`);
  return { at, speed };
}
