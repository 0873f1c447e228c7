import type { Exchange } from '@shared/domain/instrument';

/**
 * The Upstox segment of each exchange the app trades (docs/upstox.md §Instruments): the first
 * half of an instrument key (`NSE_EQ|…`), one table for the adapter and the paper /upstox.
 */
export const SEGMENT_OF: Readonly<Record<Exchange, string>> = {
  NSE: 'NSE_EQ',
  BSE: 'BSE_EQ',
  NFO: 'NSE_FO',
  BFO: 'BSE_FO',
  MCX: 'MCX_FO',
  CDS: 'NCD_FO',
};
