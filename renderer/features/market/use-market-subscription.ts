import { useEffect } from 'react';
import { call } from '../../lib/ipc-client';

/**
 * Tells main which instruments this part of the UI watches (`owner` is its name); main
 * subscribes the broker stream to the union over all owners. Re-sent only when the set changes,
 * emptied on unmount.
 */
export function useMarketSubscription(owner: string, tokens: readonly number[]): void {
  const key = [...new Set(tokens)]
    .sort((a, b) => a - b)
    .slice(0, 500)
    .join(',');
  useEffect(() => {
    const list = key ? key.split(',').map(Number) : [];
    call('market.subscribe', { owner, tokens: list }).catch((e: unknown) => {
      console.warn(`market.subscribe(${owner}) failed`, e);
    });
    return () => {
      call('market.subscribe', { owner, tokens: [] }).catch(() => undefined);
    };
  }, [owner, key]);
}
