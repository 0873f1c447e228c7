import type { OrderRequest } from '@shared/domain/order';
import { legAdded, MAX_LEGS } from '../../state/baskets-model';
import { useBasket } from './use-basket';

/**
 * The ticket's "Add to basket": the order as the ticket would place it, kept as the basket's
 * next leg instead of being sent (docs/desk.md §Baskets). Usable only when the ticket could
 * place it (the same rules judged it).
 */
export function AddToBasket({ order }: { readonly order: OrderRequest | null }) {
  const { basket, change } = useBasket();
  const full = basket.legs.length >= MAX_LEGS;
  // Short on screen (it shares a row with Place order on a 1280 px screen); named in full.
  const count = basket.legs.length > 0 ? ` (${basket.legs.length})` : '';
  return (
    <button
      type="button"
      disabled={!order || full}
      aria-label={`Add to basket${count}`}
      title={full ? `A basket holds at most ${MAX_LEGS} legs` : 'Add to basket (not sent)'}
      onClick={() => order && change((b) => legAdded(b, order))}
    >
      + Basket{count}
    </button>
  );
}
