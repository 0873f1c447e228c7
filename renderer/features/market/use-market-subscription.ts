import { useEffect } from 'react';
import type { StreamMode } from '@shared/domain/market';
import { call } from '../../lib/ipc-client';

/**
 * Tells main which instruments this part of the UI watches (`owner` is its name) and how much
 * their ticks must carry (`mode`: `full` for a depth ladder, else the default `quote`); main
 * subscribes the broker stream to the union over all owners, each token in the richest mode
 * asked. Re-sent only when the set or the mode changes, emptied on unmount.
 */
export function useMarketSubscription(owner: string, tokens: readonly number[], mode?: StreamMode): void {
  const key = [...new Set(tokens)]
    .sort((a, b) => a - b)
    .slice(0, 500)
    .join(',');
  useEffect(() => {
    const list = key ? key.split(',').map(Number) : [];
    call('market.subscribe', { owner, tokens: list, ...(mode ? { mode } : {}) }).catch((e: unknown) => {
      console.warn(`market.subscribe(${owner}) failed`, e);
    });
    return () => {
      call('market.subscribe', { owner, tokens: [] }).catch(() => undefined);
    };
  }, [owner, key, mode]);
}
