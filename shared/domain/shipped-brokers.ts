import type { BrokerDescriptor, ProductOffer } from './broker-descriptor';
import { Product } from './order';

/**
 * What the shipped broker kinds tell the renderer (`brokers.list`; docs/brokers.md §The broker
 * registry): each entry in electron/broker/ describes itself with its descriptor here, and the
 * renderer's component tests read the same list, since the renderer cannot import main's registry.
 */

/** Kite Connect's API root, where a Kite profile without a `baseUrl` trades. */
export const KITE_API_ROOT = 'https://api.kite.trade';

/** Upstox's API root, where an Upstox profile without a `baseUrl` trades (docs/upstox.md §The adapter). */
export const UPSTOX_API_ROOT = 'https://api.upstox.com';

/** Every product of the desk under its own name: for a broker that names them as the app does (Kite, docs/api.md). */
export const PRODUCTS_AS_NAMED: ProductOffer[] = Product.options.map((product) => ({ product, label: product }));

/** Upstox's names for the desk's products: intraday `I`, delivery and carry-forward both `D` (docs/upstox.md §The adapter). */
const UPSTOX_PRODUCT_NAMES: Readonly<Record<Product, string>> = { MIS: 'I', CNC: 'D', NRML: 'D' };

/** The embedded paper broker: nothing to ask. */
export const PAPER_BROKER: BrokerDescriptor = {
  kind: 'paper',
  title: 'Paper broker (simulated, no account needed)',
  logins: [{ kind: 'none', label: 'No login needed' }],
  fields: [],
  products: PRODUCTS_AS_NAMED,
  validities: ['DAY', 'IOC'],
};

/** A remote broker of the REST dialect (docs/api.md). */
export const REST_BROKER: BrokerDescriptor = {
  kind: 'rest',
  title: 'REST broker',
  logins: [{ kind: 'token', label: 'API key and secret' }],
  fields: [
    { name: 'baseUrl', label: 'Broker URL', kind: 'url', required: true, placeholder: 'https://broker.example/v1' },
    { name: 'apiKey', label: 'API key', kind: 'text', required: true },
    { name: 'apiSecret', label: 'API secret', kind: 'secret', required: true },
  ],
  products: PRODUCTS_AS_NAMED,
  validities: ['DAY', 'IOC'],
};

/**
 * The form of a broker logging in through its own page or with today's access token: its API
 * root (optional), the app's key, its secret for the page or the token; `more`, the kind's own settings.
 */
function pageOrTokenForm(
  broker: string,
  apiRoot: string,
  more: BrokerDescriptor['fields'] = [],
): Pick<BrokerDescriptor, 'logins' | 'fields'> {
  return {
    logins: [
      { kind: 'login-window', label: `Through ${broker}'s login page (API secret)` },
      { kind: 'token', label: "Paste today's access token" },
    ],
    fields: [
      { name: 'baseUrl', label: `${broker} API URL (optional)`, kind: 'url', required: false, placeholder: apiRoot },
      { name: 'apiKey', label: 'API key', kind: 'text', required: true },
      { name: 'apiSecret', label: 'API secret', kind: 'secret', required: true, login: 'login-window' },
      { name: 'accessToken', label: 'Access token', kind: 'secret', required: true, login: 'token' },
      ...more,
    ],
  };
}

/** Zerodha Kite Connect v3 (docs/kite.md). */
export const KITE_BROKER: BrokerDescriptor = {
  kind: 'kite',
  title: 'Zerodha Kite',
  ...pageOrTokenForm('Kite', KITE_API_ROOT, [
    {
      name: 'marketProtection',
      label: 'Market protection %',
      kind: 'number',
      required: false,
      help: 'For MARKET and SL-M orders: at most this % from the last price. Empty: automatic (Kite chooses).',
    },
    {
      name: 'ipv4Only',
      label: 'Send orders over IPv4 only',
      kind: 'flag',
      required: false,
      help: 'When your static IP registered with Kite is an IPv4 address.',
    },
  ]),
  products: PRODUCTS_AS_NAMED,
  validities: ['DAY', 'IOC'],
  note: 'Kite sessions end at 6:00 AM IST; log in again each trading day.',
};

/** Upstox (docs/upstox.md): every product of the desk under Upstox's name for it. */
export const UPSTOX_BROKER: BrokerDescriptor = {
  kind: 'upstox',
  title: 'Upstox',
  ...pageOrTokenForm('Upstox', UPSTOX_API_ROOT),
  products: Product.options.map((product) => ({ product, label: UPSTOX_PRODUCT_NAMES[product] })),
  validities: ['DAY', 'IOC'],
  note: 'Upstox tokens end at 3:30 AM IST; log in again each trading day. Orders go out from your static IP.',
};

/** The shipped kinds in the registry's order, as `brokers.list` answers them. */
export const SHIPPED_BROKERS: readonly BrokerDescriptor[] = [PAPER_BROKER, REST_BROKER, KITE_BROKER, UPSTOX_BROKER];
