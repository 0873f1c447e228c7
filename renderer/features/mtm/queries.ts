import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { MtmSettings, MtmState } from '@shared/domain/mtm';
import { call, subscribe } from '../../lib/ipc-client';

/**
 * The MTM stop and target (docs/contract.md §Risk guard): the levels and the day's status,
 * measured and enforced in main. Every `mtm.changed` push is written into the cache.
 */
export const mtmQueries = {
  state: () =>
    queryOptions({
      queryKey: ['mtm'],
      queryFn: () => call('mtm.get'),
      retry: false,
    }),
};

/** Writes each `mtm.changed` push into the state's cache. */
export function useMtmEvents(): void {
  const client = useQueryClient();
  useEffect(
    () =>
      subscribe('mtm.changed', (status) => {
        client.setQueryData<MtmState>(mtmQueries.state().queryKey, (s) => (s ? { ...s, status } : s));
      }),
    [client],
  );
}

function useMtmMutation<I>(key: string, fn: (input: I) => Promise<MtmState>) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['mtm', key],
    mutationFn: fn,
    onSuccess: (state) => client.setQueryData(mtmQueries.state().queryKey, state),
  });
}

/** Saves the profile's MTM levels (main stores them and watches afresh). */
export const useSetMtm = () => useMtmMutation('set', (settings: MtmSettings) => call('mtm.set', { settings }));
/** A soft level's "Run now". */
export const useConfirmMtm = () => useMtmMutation('confirm', () => call('mtm.confirm'));
/** A soft level's "Keep positions". */
export const useDismissMtm = () => useMtmMutation('dismiss', () => call('mtm.dismiss'));
