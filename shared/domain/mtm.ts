import { z } from 'zod';

/**
 * The account's MTM stop and target (docs/contract.md §Risk guard, "MTM stop and target"): main
 * measures the day's mark to market on every tick and, when a level is hit, runs the kill switch
 * (cancel all, exit all) once.
 */

/** An amount of money: rupees, or a percentage of the day's opening funds. */
export const MtmAmount = z.strictObject({
  value: z.number().positive().max(1e12),
  unit: z.enum(['rupees', 'percent']),
});
export type MtmAmount = z.infer<typeof MtmAmount>;

/**
 * The trader's levels, per profile. `stop` is a loss (₹20,000 = "flatten at −₹20,000"), `target`
 * a gain; `trail` locks in a gain once reached ("once +₹30,000, never give back below +₹20,000").
 * `hard` runs at once; soft asks, and runs when `countdownS` seconds pass without an answer.
 */
export const MtmSettings = z
  .strictObject({
    stop: MtmAmount.nullable(),
    target: MtmAmount.nullable(),
    trail: z.strictObject({ from: MtmAmount, lock: MtmAmount }).nullable(),
    hard: z.boolean(),
    countdownS: z.number().int().min(5).max(600),
  })
  .superRefine((s, ctx) => {
    // Compared only in one unit: "from 1%, lock ₹15,000" could lock in more than the gain it
    // starts at, and the kill switch would run the moment the lock engaged.
    if (s.trail && s.trail.from.unit !== s.trail.lock.unit)
      ctx.addIssue({
        code: 'custom',
        path: ['trail', 'lock'],
        message: 'The lock-in takes the same unit as the gain it starts at',
      });
    else if (s.trail && s.trail.lock.value >= s.trail.from.value)
      ctx.addIssue({
        code: 'custom',
        path: ['trail', 'lock'],
        message: 'The lock-in must be below the gain it starts at',
      });
  });
export type MtmSettings = z.infer<typeof MtmSettings>;

/** Every level off: what a new profile starts with. */
export const NO_MTM_SETTINGS: MtmSettings = { stop: null, target: null, trail: null, hard: true, countdownS: 30 };

/** Which level a breach hit. */
export const MtmLevel = z.enum(['stop', 'target', 'trail']);
export type MtmLevel = z.infer<typeof MtmLevel>;

/** A level hit: at what figure and when, and the kill switch run it started (null while a soft one counts down). */
export const MtmTrigger = z.object({
  level: MtmLevel,
  /** The day's MTM at the breach tick, in rupees. */
  mtm: z.number(),
  /** The level it crossed, in rupees (a stop is negative). */
  levelRupees: z.number(),
  /** Epoch ms of the breach. */
  at: z.number().int().nonnegative(),
  /**
   * The kill switch run, once started; `''` while it waits for another run to end (the trader's
   * own kill switch, an exit); null while a soft level counts down or was declined.
   */
  runId: z.string().nullable(),
  /** A soft level: when the countdown runs it (epoch ms); null once run, or for a hard one. */
  runsAt: z.number().int().nonnegative().nullable(),
});
export type MtmTrigger = z.infer<typeof MtmTrigger>;

/**
 * Where the day stands against the levels, for the header.
 *
 * `state`: `off` (no level set), `unknown` (positions or prices not known: no figure is shown),
 * `watching`, `asking` (a soft level hit, counting down), `fired` (the kill switch ran, or runs),
 * `dismissed` (a soft level the trader declined: not watched again until the levels are saved).
 */
export const MtmStatus = z.object({
  state: z.enum(['off', 'unknown', 'watching', 'asking', 'fired', 'dismissed']),
  /** The day's MTM (realised + unrealised), rupees; null while unknown. */
  mtm: z.number().nullable(),
  realised: z.number().nullable(),
  unrealised: z.number().nullable(),
  /** Estimated charges of the day's fills (shown beside, not counted in the MTM). */
  charges: z.number().nullable(),
  /** The levels in rupees as in force now (null when off or not resolvable). */
  stop: z.number().nullable(),
  target: z.number().nullable(),
  /** The trail's floor once it is active (its lock-in), else null. */
  lockedAt: z.number().nullable(),
  /** The day's highest MTM seen (the trail starts from it). */
  peak: z.number().nullable(),
  /** Why the figure or a level is unknown, in words. */
  why: z.string().nullable(),
  trigger: MtmTrigger.nullable(),
  /** Epoch ms of the figures. */
  asOf: z.number().int().nonnegative(),
});
export type MtmStatus = z.infer<typeof MtmStatus>;

/** The levels and where the day stands. */
export const MtmState = z.object({ settings: MtmSettings, status: MtmStatus });
export type MtmState = z.infer<typeof MtmState>;
