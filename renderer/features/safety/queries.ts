import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { RiskLimits } from '@shared/domain/risk';
import type { SafetyRequest } from '@shared/domain/safety-run';
import { call, subscribe } from '../../lib/ipc-client';
import { orderQueries } from '../orders/queries';
import { portfolioQueries } from '../portfolio/queries';
import { useSafetyActions } from './safety-store';

/**
 * Query factory for the trader's safety net (docs/contract.md §Risk guard, §Kill switch). The
 * risk state lives under the portfolio's key: it is read from positions, so whatever refreshes
 * positions (an order changed) refreshes it too.
 */
export const safetyQueries = {
  risk: () =>
    queryOptions({
      queryKey: [...portfolioQueries.all(), 'risk'],
      queryFn: () => call('risk.get'),
      retry: false,
    }),
  /**
   * The current run: written by the start's answer and every `safety.progress` push, read from
   * main only when the cache has none (a read in flight could otherwise overwrite a newer push).
   */
  run: () =>
    queryOptions({
      queryKey: ['safety', 'run'],
      queryFn: () => call('safety.current'),
      retry: false,
      staleTime: Number.POSITIVE_INFINITY,
    }),
};

/** Saves the profile's risk limits (main stores and enforces them). */
export function useSetRiskLimits() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['risk', 'set'],
    mutationFn: (limits: RiskLimits) => call('risk.set', { limits }),
    onSuccess: (state) => client.setQueryData(safetyQueries.risk().queryKey, state),
  });
}

/** Starts a safety run and shows its progress. */
export function useStartSafetyRun() {
  const client = useQueryClient();
  const { runShown } = useSafetyActions();
  return useMutation({
    mutationKey: ['safety', 'start'],
    mutationFn: (action: SafetyRequest) => call('safety.start', action),
    onSuccess: (run) => {
      client.setQueryData(safetyQueries.run().queryKey, run);
      runShown();
    },
  });
}

/**
 * The trader's Stop of a running safety run: main sends nothing more and ends the run with its
 * read-back (docs/contract.md §Kill switch); the pushes that follow say so.
 */
export function useStopSafetyRun() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['safety', 'stop'],
    mutationFn: () => call('safety.stop'),
    onSuccess: (run) => {
      if (run) client.setQueryData(safetyQueries.run().queryKey, run);
    },
  });
}

/**
 * The trader's re-arm after a kill switch: its barrier comes down and orders that add risk may
 * leave the desk again (docs/contract.md §Kill switch).
 */
export function useRearm() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['safety', 'rearm'],
    mutationFn: () => call('safety.rearm'),
    onSuccess: (run) => {
      if (run) client.setQueryData(safetyQueries.run().queryKey, run);
    },
  });
}

/** Writes each `safety.progress` push into the run's cache; a finished run refreshes orders and positions. */
export function useSafetyEvents(): void {
  const client = useQueryClient();
  useEffect(
    () =>
      subscribe('safety.progress', (run) => {
        client.setQueryData(safetyQueries.run().queryKey, run);
        if (run.state !== 'running') {
          void client.invalidateQueries({ queryKey: orderQueries.all() });
          void client.invalidateQueries({ queryKey: portfolioQueries.all() });
        }
      }),
    [client],
  );
}
