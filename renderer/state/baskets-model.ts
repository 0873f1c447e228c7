import type { OrderRequest } from '@shared/domain/order';

/**
 * Baskets, without React (docs/desk.md §Baskets): the basket being built (orders not yet sent)
 * and the baskets saved by name, per profile. Pure, so its rules are unit-tested; placing is
 * not here — each leg goes through `orders.place` like any order.
 */

/** A basket saved by name. */
export interface SavedBasket {
  readonly name: string;
  readonly legs: readonly OrderRequest[];
}

/** A profile's basket in the making and its saved baskets. */
export interface ProfileBaskets {
  readonly legs: readonly OrderRequest[];
  readonly saved: readonly SavedBasket[];
}

/** At most this many legs in a basket (a broker's basket holds 20), and saved baskets. */
export const MAX_LEGS = 20;
export const MAX_SAVED = 50;
/** The longest basket name. */
export const MAX_BASKET_NAME = 32;

/** An empty basket and nothing saved. */
export const NO_BASKETS: ProfileBaskets = { legs: [], saved: [] };

/** `order` added as the basket's last leg (not past MAX_LEGS). */
export function legAdded(b: ProfileBaskets, order: OrderRequest): ProfileBaskets {
  return b.legs.length >= MAX_LEGS ? b : { ...b, legs: [...b.legs, order] };
}

/** The leg at `index` removed. */
export function legRemoved(b: ProfileBaskets, index: number): ProfileBaskets {
  return { ...b, legs: b.legs.filter((_, n) => n !== index) };
}

/** The basket emptied (the saved ones are kept). */
export function basketCleared(b: ProfileBaskets): ProfileBaskets {
  return { ...b, legs: [] };
}

/** Why `name` cannot name a saved basket, or null. Saving under an existing name replaces it. */
export function basketNameProblem(name: string): string | null {
  const n = name.trim();
  if (!n) return 'Give the basket a name';
  if (n.length > MAX_BASKET_NAME) return `At most ${MAX_BASKET_NAME} characters`;
  return null;
}

/** The basket's legs saved as `name` (replacing a basket of that name, in any case). */
export function basketSaved(b: ProfileBaskets, name: string): ProfileBaskets {
  const n = name.trim();
  if (basketNameProblem(n) !== null || b.legs.length === 0) return b;
  const others = b.saved.filter((s) => s.name.toLowerCase() !== n.toLowerCase());
  if (others.length >= MAX_SAVED) return b;
  return { ...b, saved: [...others, { name: n, legs: b.legs }] };
}

/** The saved basket `name` loaded as the basket (replacing its legs). */
export function basketLoaded(b: ProfileBaskets, name: string): ProfileBaskets {
  const s = b.saved.find((x) => x.name === name);
  return s ? { ...b, legs: s.legs } : b;
}

/** The saved basket `name` deleted. */
export function basketDeleted(b: ProfileBaskets, name: string): ProfileBaskets {
  return { ...b, saved: b.saved.filter((s) => s.name !== name) };
}
