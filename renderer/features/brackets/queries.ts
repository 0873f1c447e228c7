import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { BracketRequest } from '@shared/domain/bracket';
import { call, subscribe } from '../../lib/ipc-client';
import { useInvalidateAfterOrder } from '../orders/queries';

/**
 * Query factory for brackets and trailing stops kept by main (docs/brackets.md): the list is kept
 * current by `brackets.changed` pushes; a read at start and after a reconnect covers the rest.
 */
export const bracketQueries = {
  all: () => ['brackets'] as const,
  list: () => queryOptions({ queryKey: [...bracketQueries.all(), 'list'], queryFn: () => call('brackets.list') }),
};

/** Writes every `brackets.changed` push into the list's cache. */
export function useBracketEvents(): void {
  const client = useQueryClient();
  useEffect(
    () =>
      subscribe('brackets.changed', ({ brackets }) => client.setQueryData(bracketQueries.list().queryKey, brackets)),
    [client],
  );
}

/** A bracket (or a protected position) placed once per click: `requestId` per click. */
export function usePlaceBracket() {
  const client = useQueryClient();
  const invalidate = useInvalidateAfterOrder();
  return useMutation({
    mutationKey: ['brackets', 'place'],
    mutationFn: (v: { request: BracketRequest; requestId: string; clickedAt: number; riskOverride?: true }) =>
      call('brackets.place', v),
    onSettled: () => {
      invalidate();
      void client.invalidateQueries({ queryKey: bracketQueries.all() });
    },
  });
}

/** The trader cancels a bracket: main cancels its working orders. */
export function useCancelBracket() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['brackets', 'cancel'],
    mutationFn: (id: string) => call('brackets.cancel', { id }),
    onSettled: () => void client.invalidateQueries({ queryKey: bracketQueries.all() }),
  });
}
