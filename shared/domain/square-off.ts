import { z } from 'zod';
import { Exchange, IsoDate } from './instrument';
import { CLOSE_MINUTE } from '../trading/market-hours';

/**
 * Square-off at a time (docs/contract.md §Risk guard): at a time the trader chooses per
 * exchange, main exits that exchange's intraday (MIS) positions and cancels its working MIS
 * orders, with a warning two minutes before.
 */

/** A time of day in IST, `HH:MM`. */
export const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:MM (IST)');
export type ClockTime = z.infer<typeof ClockTime>;

/** Minutes after IST midnight of `HH:MM`. */
export function minuteOfDay(time: ClockTime): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

const Times = z.strictObject({
  NSE: ClockTime,
  BSE: ClockTime,
  NFO: ClockTime,
  BFO: ClockTime,
  MCX: ClockTime,
  CDS: ClockTime,
});

/** The trader's square-off: on or off, and the time per exchange (each before that exchange's close). */
export const SquareOffSettings = z.strictObject({ enabled: z.boolean(), times: Times }).superRefine((s, ctx) => {
  for (const ex of Exchange.options) {
    if (minuteOfDay(s.times[ex]) >= CLOSE_MINUTE[ex])
      ctx.addIssue({
        code: 'custom',
        path: ['times', ex],
        message: `must be before ${ex}'s close`,
      });
  }
});
export type SquareOffSettings = z.infer<typeof SquareOffSettings>;

/** Where the square-off stands: the header's countdown and its state after a run. */
export const SquareOffPhase = z.enum([
  /** Off, or no session ahead is known. */
  'off',
  /** Planned; more than two minutes to go. */
  'waiting',
  /** Two minutes or less to go: the trader has been warned. */
  'warning',
  /** Main started after the time with intraday positions open: it asks before exiting. */
  'asking',
  'running',
  /** Today's square-off is over (run, declined, or nothing was open). */
  'done',
]);
export type SquareOffPhase = z.infer<typeof SquareOffPhase>;

/** The last square-off's result: "Squared off at 15:10:00: 3 positions". */
export const SquareOffOutcome = z.object({
  /** The IST date of the session it was for. */
  date: IsoDate,
  /** When it started, epoch ms on the market's clock. */
  at: z.number().int().nonnegative(),
  exchanges: z.array(Exchange),
  /** Intraday positions it exited. */
  positions: z.number().int().nonnegative(),
  /** `done`: flat and nothing working; `incomplete`: something is still open (see the run); `declined`: the trader said no. */
  state: z.enum(['done', 'incomplete', 'declined']),
  detail: z.string(),
});
export type SquareOffOutcome = z.infer<typeof SquareOffOutcome>;

/** The square-off now (`squareOff.get`, event `squareOff.changed`). */
export const SquareOffState = z.object({
  settings: SquareOffSettings,
  phase: SquareOffPhase,
  /** The next square-off: when (epoch ms, market clock), its warning, the exchanges it covers. */
  next: z
    .object({
      date: IsoDate,
      at: z.number().int().nonnegative(),
      warnAt: z.number().int().nonnegative(),
      exchanges: z.array(Exchange),
    })
    .nullable(),
  /** The market's clock less the machine's (ms): a countdown runs on the market's time. */
  marketLeadMs: z.number().int(),
  last: SquareOffOutcome.nullable(),
});
export type SquareOffState = z.infer<typeof SquareOffState>;

/** What main keeps of the square-off per profile, across restarts. */
export const StoredSquareOff = z.object({
  settings: SquareOffSettings,
  /** The session date each exchange was last squared off (or declined, or had nothing open). */
  doneOn: z.partialRecord(Exchange, IsoDate),
  last: SquareOffOutcome.nullable(),
});
export type StoredSquareOff = z.infer<typeof StoredSquareOff>;
