import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { SquareOffSettings, SquareOffState } from '@shared/domain/square-off';
import { call, subscribe } from '../../lib/ipc-client';
import { useToastActions } from '../../state/toast-store';
import { orderQueries } from '../orders/queries';
import { portfolioQueries } from '../portfolio/queries';
import { squareOffChipText } from './square-off-text';

/** Query factory for the square-off at a time (docs/contract.md §Risk guard), kept and run by main. */
export const squareOffQueries = {
  state: () =>
    queryOptions({
      queryKey: ['squareOff'],
      queryFn: () => call('squareOff.get'),
      retry: false,
      staleTime: 30_000,
    }),
};

/** Saves the profile's square-off settings (main keeps and runs them). */
export function useSetSquareOff() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['squareOff', 'set'],
    mutationFn: (settings: SquareOffSettings) => call('squareOff.set', { settings }),
    onSuccess: (state) => client.setQueryData(squareOffQueries.state().queryKey, state),
  });
}

/** The trader's answer when main asks (it started after the time with intraday positions open). */
export function useAnswerSquareOff() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['squareOff', 'answer'],
    mutationFn: (run: boolean) => call('squareOff.answer', { run }),
    onSuccess: (state) => client.setQueryData(squareOffQueries.state().queryKey, state),
  });
}

/**
 * Writes each `squareOff.changed` push into the cache, and toasts the warning two minutes before
 * and how the run went (main's OS notification says the warning with the window hidden too).
 */
export function useSquareOffEvents(): void {
  const client = useQueryClient();
  const { toastRaised } = useToastActions();
  const phase = useRef<SquareOffState['phase'] | null>(null);
  useEffect(
    () =>
      subscribe('squareOff.changed', (state) => {
        client.setQueryData(squareOffQueries.state().queryKey, state);
        const was = phase.current;
        phase.current = state.phase;
        if (state.phase === 'warning' && was !== 'warning' && state.next) {
          toastRaised({
            id: `square-off-warning-${state.next.at}`,
            tone: 'neutral',
            title: squareOffChipText(state, state.next.warnAt).text.replace(/ in .*$/, ''),
            detail: `Intraday (MIS) positions on ${state.next.exchanges.join(', ')} are exited then, and their working orders cancelled.`,
          });
        }
        if (state.phase === 'done' && was === 'running' && state.last) {
          const { text, tone } = squareOffChipText(state, Date.now());
          toastRaised({
            id: `square-off-${state.last.at}`,
            tone: tone === 'good' ? 'good' : 'bad',
            title: text,
            detail: null,
          });
          void client.invalidateQueries({ queryKey: orderQueries.all() });
          void client.invalidateQueries({ queryKey: portfolioQueries.all() });
        }
      }),
    [client, toastRaised],
  );
}
