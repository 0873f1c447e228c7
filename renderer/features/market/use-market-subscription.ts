import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { StreamMode } from '@shared/domain/market';
import { call } from '../../lib/ipc-client';
import { quotesStoreFor } from './quotes-store';

/**
 * Tells main which instruments this part of the UI watches (`owner` is its name) and how much
 * their ticks must carry (`mode`: `full` for a depth ladder, else the default `quote`); main
 * subscribes the broker stream to the union over all owners, each token in the richest mode
 * asked. Re-sent only when the set or the mode changes, emptied on unmount. Main answers with the
 * last tick it holds of each (what the broker's own snapshot would have said, had main not been
 * streaming it already); it is taken only for an instrument this page holds no quote of yet.
 */
export function useMarketSubscription(owner: string, tokens: readonly number[], mode?: StreamMode): void {
  const key = [...new Set(tokens)]
    .sort((a, b) => a - b)
    .slice(0, 500)
    .join(',');
  const client = useQueryClient();
  useEffect(() => {
    const list = key ? key.split(',').map(Number) : [];
    call('market.subscribe', { owner, tokens: list, ...(mode ? { mode } : {}) })
      .then(({ last }) => {
        const store = quotesStoreFor(client);
        const unseen = (last ?? []).filter((t) => store.get(t.instrumentToken) === undefined);
        if (unseen.length > 0) store.push(unseen, Date.now(), 'stream');
      })
      .catch((e: unknown) => {
        console.warn(`market.subscribe(${owner}) failed`, e);
      });
    return () => {
      call('market.subscribe', { owner, tokens: [] }).catch(() => undefined);
    };
  }, [client, owner, key, mode]);
}
