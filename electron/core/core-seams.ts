import type { LookupFunction } from 'node:net';
import type { BackoffPolicy } from '../broker/http/backoff';
import type { HttpTimeouts } from '../broker/http/http-client';
import type { RtoBounds } from '../broker/http/rtt-estimator';
import type { RateLimit } from '../broker/http/token-bucket';
import type { Clock } from './clock';
import type { SetTimer } from './drift/drift-monitor';
import type { LedgerStep } from './ledger/intents-ledger';
import type { PlacementTimings } from './orders/placement-policy';
import type { ModifyTimings } from './orders/order-modifier';
import type { ActionTimings } from './orders/order-actions';
import type { SafetyTimings } from './safety/safety-runner';
import type { BracketPoint } from './brackets/bracket-manager';
import type { BracketAction } from './brackets/bracket-machine';
import type { BracketJournalStep } from './brackets/bracket-journal';
import type { Bracket } from '@shared/domain/bracket';

/**
 * The trading core's seams for tests and benchmarks: the same parts with smaller numbers,
 * injected clocks and hooks. The app passes none (its core runs on the defaults); tests reach
 * them through `createCore` in `electron/core/testing/core-fixture.ts`, the browser host's tests
 * through `AppConfig.core`.
 */
export interface CoreSeams {
  /**
   * Client-side limit; by default 80% of what the broker publishes (`Broker.limits()`: 8/s burst
   * 16 under the paper broker's 10/s burst 20), following it when the broker says otherwise. A
   * given rate is kept as it is; null = off (and the placement bucket with it).
   */
  readonly rate?: RateLimit | null;
  /** Client-side limit on placements alone; by default 80% of the broker's order limit (8/s burst 8). */
  readonly placementRate?: RateLimit;
  /**
   * Whether a 429's Retry-After pauses every request (the shared bucket) or only the one that
   * got it. On by default: a real limit applies to the whole token.
   */
  readonly pauseAllOnRetryAfter?: boolean;
  readonly timeouts?: HttpTimeouts;
  /** Pooled connections to the broker (default 16; the load benches raise it). */
  readonly connections?: number;
  /** The resolver for the broker's host (a name with IPv6 and IPv4 addresses; default the system's). */
  readonly lookup?: LookupFunction;
  readonly readBackoff?: BackoffPolicy;
  /** How long a read may take in all, waits included (default 5 s). */
  readonly readBudgetMs?: number;
  /** Bounds of the order POST's adaptive timeout (default 300 ms–5 s). */
  readonly rto?: RtoBounds;
  /** Answer deadline, re-send window, landing horizon, lookup pacing (docs/money-path.md §One policy for every broker). */
  readonly placementTimings?: Partial<PlacementTimings>;
  /** How long a modification looks for its order and confirms an ambiguous PATCH. */
  readonly modifyTimings?: Partial<ModifyTimings>;
  /** How long, and how often, a modify or cancel main could not confirm is read back. */
  readonly actionTimings?: Partial<ActionTimings>;
  /** Client references for new intents (default random `td-…`). */
  readonly newClientOrderId?: () => string;
  /** The order service's clock (timers that wake late, as on a loaded machine). */
  readonly orderClock?: Clock;
  /** Tries and waits of the kill switch's runs. */
  readonly safetyTimings?: Partial<SafetyTimings>;
  /** The timer of a soft MTM level's countdown (a timer the test fires by hand; docs/contract.md §Risk guard). */
  readonly mtmTimer?: SetTimer;
  /**
   * The MTM guard's clock: its IST day (the day's trigger, kept across a restart the same day;
   * the rollover at midnight) and the trigger's time (docs/contract.md §Risk guard). Default the system's.
   */
  readonly mtmClock?: Pick<Clock, 'now'>;
  /** Entries after which the intents ledger compacts. */
  readonly ledgerCompactAfter?: number;
  /** Told at each durable step of the intents ledger (crash tests kill the process at one). */
  readonly ledgerOnStep?: (step: LedgerStep) => void;
  /** Told each time an order write leaves the client's calendar-window pacer (tests check the pace). */
  readonly onOrderWrite?: (at: number) => void;
  /** False: no order/tick stream after login (default: opened). */
  readonly stream?: boolean;
  /**
   * The drift alarm's own checks — after login (once the first screen is drawn, when the app
   * says so: `TradingCoreOptions.firstScreen`), every `everyMs`, after each stream reconnect
   * (docs/contract.md §Drift alarm) — with its pace and timer (a timer the test fires by hand).
   * False: it checks only when asked (`drift.check()`), so the core sends no reads of its own.
   */
  readonly drift?:
    false | { readonly everyMs?: number; readonly confirmAfterMs?: number; readonly setTimer?: SetTimer };
  /**
   * Brackets (docs/brackets.md): the pace of their retries and of the book's reads without a
   * stream, and hooks where the crash tests stop a process (a step decided, journaled; the
   * journal's write and fsync).
   */
  readonly brackets?: {
    readonly everyMs?: number;
    readonly onPoint?: (point: BracketPoint, bracket: Bracket, actions: readonly BracketAction[]) => void;
    readonly onJournalStep?: (step: BracketJournalStep) => void;
  };
}
