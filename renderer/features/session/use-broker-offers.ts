import { useQuery } from '@tanstack/react-query';
import type { ProductOffer } from '@shared/domain/broker-descriptor';
import { Product, Validity } from '@shared/domain/order';
import { sessionQueries } from './queries';

/** The products and validities a broker takes, in its own names for them. */
export interface BrokerOffers {
  readonly products: readonly ProductOffer[];
  readonly validities: readonly Validity[];
}

/** Every product and validity the desk knows: while the session's broker is not yet known. */
const EVERY_OFFER: BrokerOffers = {
  products: Product.options.map((product) => ({ product, label: product })),
  validities: Validity.options,
};

/**
 * What the session's broker offers, from its descriptor in main's registry (docs/brokers.md §The
 * broker registry): the ticket offers these and names each product as the broker does.
 */
export function useBrokerOffers(): BrokerOffers {
  const session = useQuery(sessionQueries.status()).data;
  const brokers = useQuery(sessionQueries.brokers()).data;
  const descriptor = brokers?.find((b) => b.kind === session?.broker);
  return descriptor ?? EVERY_OFFER;
}

/** How the session's broker names each product on screen (Upstox: I, D), from its descriptor; the app's own name otherwise. */
export function useProductName(): (product: Product) => string {
  const { products } = useBrokerOffers();
  return (product) => products.find((p) => p.product === product)?.label ?? product;
}
