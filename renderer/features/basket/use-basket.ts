import { useCallback } from 'react';
import type { ProfileBaskets } from '../../state/baskets-model';
import { useBasketsActions, useProfileBaskets } from '../../state/baskets-store';
import { useProfileKey } from '../session/use-profile-key';

/** The logged-in profile's basket and saved baskets, and the way to change them (docs/desk.md §Baskets). */
export function useBasket(): {
  readonly basket: ProfileBaskets;
  readonly change: (fn: (b: ProfileBaskets) => ProfileBaskets) => void;
} {
  const key = useProfileKey();
  const basket = useProfileBaskets(key);
  const { basketsChanged } = useBasketsActions();
  const change = useCallback(
    (fn: (b: ProfileBaskets) => ProfileBaskets) => basketsChanged(key, fn),
    [basketsChanged, key],
  );
  return { basket, change };
}
