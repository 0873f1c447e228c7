import type { Product } from './order';
import type { SessionInfo } from './session';

type BrokerKindName = SessionInfo['broker'];

/**
 * How a broker names the app's products (docs/upstox.md §The adapter): Upstox's intraday is `I`,
 * its delivery and carry-forward both `D`; every other broker's are the app's own.
 */
const BROKER_PRODUCT_NAMES: Partial<Record<BrokerKindName, Readonly<Record<Product, string>>>> = {
  upstox: { MIS: 'I', CNC: 'D', NRML: 'D' },
};

/** The name `broker` gives `product` on screen (the app's own when it has none or no session is known). */
export function productName(product: Product, broker: BrokerKindName | undefined): string {
  return (broker === undefined ? undefined : BROKER_PRODUCT_NAMES[broker]?.[product]) ?? product;
}
