import { useQuery } from '@tanstack/react-query';
import type { SessionInfo } from '@shared/domain/session';
import { sessionQueries } from './queries';

/** Whose settings these are: the broker and the user logged in to it ("none" before a login). */
export function profileKey(info: SessionInfo | undefined): string {
  return info?.userId ? `${info.broker}:${info.brokerLabel}:${info.userId}` : 'none';
}

/**
 * The logged-in profile's key, which per-profile UI state (named watchlists, baskets) is kept
 * under, so a paper account and a real one never share them.
 */
export function useProfileKey(): string {
  return profileKey(useQuery(sessionQueries.status()).data);
}
