import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { TradeNotes } from '@shared/domain/journal';
import { call, subscribe } from '../../lib/ipc-client';

/**
 * Query factory and mutations of the journal (docs/journal.md), kept in main: the whole record is
 * read once and again whenever main says it changed (`journal.changed`: fills came in, an import).
 */
export const journalQueries = {
  all: () => ['journal'] as const,
  view: () =>
    queryOptions({
      queryKey: [...journalQueries.all(), 'view'],
      queryFn: () => call('journal.view', {}),
      retry: false,
    }),
  picture: (tradeId: string) =>
    queryOptions({
      queryKey: [...journalQueries.all(), 'picture', tradeId],
      queryFn: () => call('journal.picture', { tradeId }),
      staleTime: Infinity,
      retry: false,
    }),
};

/** Reads the journal again whenever main says it changed. */
export function useJournalEvents(): void {
  const client = useQueryClient();
  useEffect(
    () => subscribe('journal.changed', () => void client.invalidateQueries({ queryKey: journalQueries.all() })),
    [client],
  );
}

/** Reads the broker's trade book into the journal now. */
export function useJournalSync() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call('journal.sync'),
    onSettled: () => client.invalidateQueries({ queryKey: journalQueries.view().queryKey }),
  });
}

/** Saves a trade's tags, note and stop-loss. */
export function useSaveNotes() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { readonly tradeId: string; readonly notes: TradeNotes }) => call('journal.update', input),
    onSuccess: () => client.invalidateQueries({ queryKey: journalQueries.view().queryKey }),
  });
}

/** Imports a Console tradebook CSV. */
export function useImportCsv() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { readonly csv: string; readonly equityProduct: 'CNC' | 'MIS' }) =>
      call('journal.importCsv', input),
    onSettled: () => client.invalidateQueries({ queryKey: journalQueries.view().queryKey }),
  });
}

/** Moves a damaged journal file aside (kept) and starts a new one (docs/journal.md §A damaged journal). */
export function useMoveJournalAside() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call('journal.moveAside'),
    onSettled: () => client.invalidateQueries({ queryKey: journalQueries.all() }),
  });
}
