import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { csvFileName, ordersCsv, positionsCsv, tradesCsv, type Book } from '@shared/trading/book-csv';
import { istDate } from '@shared/lib/ist-time';
import { downloadText } from '../../lib/download';
import { wholeBook } from '../orders/queries';
import { portfolioQueries } from '../portfolio/queries';
import { marketStatusQueries } from '../market-status/queries';
import { tradeQueries } from '../trades/queries';
import { fillsOfDay, tradingDay } from '../trades/trade-book';

/**
 * Reads `book` afresh from the broker (never older than the click) and renders it as CSV; the
 * trades of `day` only, as the Trades panel shows them.
 */
async function freshCsv(client: QueryClient, book: Book, day: string | null): Promise<string> {
  switch (book) {
    case 'orders':
      return ordersCsv(await wholeBook(client));
    case 'trades':
      return tradesCsv(fillsOfDay(await client.fetchQuery({ ...tradeQueries.list(), staleTime: 0 }), day));
    case 'positions':
      return positionsCsv(await client.fetchQuery({ ...portfolioQueries.positions(), staleTime: 0 }));
  }
}

/**
 * Exports one book as a CSV download (docs/desk.md §CSV export). The read comes first: if it
 * fails, the mutation fails and nothing is written, so there is never a partial or stale file.
 * `now` names the file's day when the market's clock is unknown; `onError` is for a caller
 * that is gone before the read ends (the command palette closes at once).
 */
export function useExportBook(options: { readonly now?: () => number; readonly onError?: (e: Error) => void } = {}) {
  const { now = Date.now, onError } = options;
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['export'],
    ...(onError ? { onError } : {}),
    mutationFn: async (book: Book) => {
      // The market's day when its clock has been read (it may be simulated), else the machine's.
      const day = tradingDay(client.getQueryData(marketStatusQueries.status().queryKey)?.now);
      const text = await freshCsv(client, book, day);
      const name = csvFileName(book, day ?? istDate(now()));
      downloadText(name, text);
      return name;
    },
  });
}
