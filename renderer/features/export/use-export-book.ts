import { useMutation, useQueryClient } from '@tanstack/react-query';
import { csvFileName, ordersCsv, positionsCsv, tradesCsv, type Book } from '@shared/trading/book-csv';
import { istDate } from '@shared/lib/ist-time';
import { downloadText } from '../../lib/download';
import { orderQueries } from '../orders/queries';
import { portfolioQueries } from '../portfolio/queries';
import { tradeQueries } from '../trades/queries';

/** Reads `book` afresh from the broker (never older than the click) and renders it as CSV. */
async function freshCsv(client: ReturnType<typeof useQueryClient>, book: Book): Promise<string> {
  switch (book) {
    case 'orders':
      return ordersCsv(await client.fetchQuery({ ...orderQueries.list(), staleTime: 0 }));
    case 'trades':
      return tradesCsv(await client.fetchQuery({ ...tradeQueries.list(), staleTime: 0 }));
    case 'positions':
      return positionsCsv(await client.fetchQuery({ ...portfolioQueries.positions(), staleTime: 0 }));
  }
}

/**
 * Exports one book as a CSV download (docs/desk.md §CSV export). The read comes first: if it
 * fails, the mutation fails and nothing is written, so there is never a partial or stale file.
 * `now` names the file's day (injectable for tests).
 */
export function useExportBook(now: () => number = Date.now) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['export'],
    mutationFn: async (book: Book) => {
      const text = await freshCsv(client, book);
      const name = csvFileName(book, istDate(now()));
      downloadText(name, text);
      return name;
    },
  });
}
