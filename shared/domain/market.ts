import { z } from 'zod';
import { Timestamp } from './order';

export const CandleInterval = z.enum(['minute', '5minute', '15minute', '60minute', 'day']);
export type CandleInterval = z.infer<typeof CandleInterval>;

/** One OHLCV bar; `ts` is the bar's opening time, ISO with the exchange offset. */
export const Candle = z.object({
  ts: Timestamp,
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number().nonnegative(),
});
export type Candle = z.infer<typeof Candle>;

/** A last-traded-price update for one instrument. */
export const Tick = z.object({
  instrumentToken: z.number().int(),
  lastPrice: z.number().nonnegative(),
  volume: z.number().nonnegative(),
  ts: Timestamp,
});
export type Tick = z.infer<typeof Tick>;
