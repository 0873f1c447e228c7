/**
 * The same members, in any order, compared by identity (each list holds a member once). A view
 * of a large list (10,000 orders) hands back its previous result when this holds, so what it
 * feeds does not render again for changes elsewhere in the list.
 */
export function sameMembers<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  const held = new Set(a);
  return b.every((x) => held.has(x));
}
