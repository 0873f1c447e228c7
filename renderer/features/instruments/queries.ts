import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Instrument } from '@shared/domain/instrument';
import { call } from '../../lib/ipc-client';
import { useFirstScreenDrawn } from '../layout/first-screen';

/**
 * Query factory for the instrument universe. It changes at most daily, so it is fetched once
 * per session and kept (`staleTime: Infinity`).
 */
export const instrumentQueries = {
  all: () => ['instruments'] as const,
  list: () =>
    queryOptions({
      queryKey: [...instrumentQueries.all(), 'list'],
      queryFn: () => call('instruments.list'),
      staleTime: Infinity,
    }),
};

/** The universe with a by-token index (built once per fetched list). */
export interface InstrumentIndex {
  readonly list: readonly Instrument[];
  readonly byToken: ReadonlyMap<number, Instrument>;
  /** By `EXCHANGE:SYMBOL` (`symbolKey`), for records that name an instrument rather than its token. */
  readonly bySymbol: ReadonlyMap<string, Instrument>;
}

/** `NSE:INFY`: the key of `InstrumentIndex.bySymbol`. */
export const symbolKey = (exchange: string, tradingsymbol: string): string => `${exchange}:${tradingsymbol}`;

const EMPTY: InstrumentIndex = { list: [], byToken: new Map(), bySymbol: new Map() };

function toIndex(list: Instrument[]): InstrumentIndex {
  return {
    list,
    byToken: new Map(list.map((i) => [i.instrumentToken, i])),
    bySymbol: new Map(list.map((i) => [symbolKey(i.exchange, i.tradingsymbol), i])),
  };
}

/**
 * The instrument universe, indexed. `select` is module-level, so react-query memoises the
 * index per fetched list rather than rebuilding a 10,000-entry Map on every render. The main
 * window asks for it once its first screen has painted: the list is the page's largest reply
 * after the book, and parsed ahead of the book's first rows it held their paint back
 * (docs/live-data.md §The first screen first). Until then the index is empty, as while it loads.
 */
export function useInstruments(): InstrumentIndex {
  const drawn = useFirstScreenDrawn();
  return useQuery({ ...instrumentQueries.list(), select: toIndex, enabled: drawn }).data ?? EMPTY;
}
