import type { BrokerDescriptor } from '../domain/broker-descriptor';
import { Product } from '../domain/order';

/** The desk's products under their own names, as paper, REST and Kite name them. */
const AS_NAMED = Product.options.map((product) => ({ product, label: product }));

/**
 * What main's broker registry answers to `brokers.list`, for component tests (the renderer
 * cannot import main's registry). `broker-registry.test.ts` in electron/app/session/ holds each of the
 * shipped kinds here equal to its registry entry, so these cannot drift from what the app sends.
 */
export const SHIPPED_BROKERS: readonly BrokerDescriptor[] = [
  {
    kind: 'paper',
    title: 'Paper broker (simulated, no account needed)',
    logins: [{ kind: 'none', label: 'No login needed' }],
    fields: [],
    products: AS_NAMED,
    validities: ['DAY', 'IOC'],
  },
  {
    kind: 'rest',
    title: 'REST broker',
    logins: [{ kind: 'token', label: 'API key and secret' }],
    fields: [
      { name: 'baseUrl', label: 'Broker URL', kind: 'url', required: true, placeholder: 'https://broker.example/v1' },
      { name: 'apiKey', label: 'API key', kind: 'text', required: true },
      { name: 'apiSecret', label: 'API secret', kind: 'secret', required: true },
    ],
    products: AS_NAMED,
    validities: ['DAY', 'IOC'],
  },
  {
    kind: 'kite',
    title: 'Zerodha Kite',
    logins: [
      { kind: 'login-window', label: "Through Kite's login page (API secret)" },
      { kind: 'token', label: "Paste today's access token" },
    ],
    fields: [
      {
        name: 'baseUrl',
        label: 'Kite API URL (optional)',
        kind: 'url',
        required: false,
        placeholder: 'https://api.kite.trade',
      },
      { name: 'apiKey', label: 'API key', kind: 'text', required: true },
      { name: 'apiSecret', label: 'API secret', kind: 'secret', required: true, login: 'login-window' },
      { name: 'accessToken', label: 'Access token', kind: 'secret', required: true, login: 'token' },
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
    ],
    products: AS_NAMED,
    validities: ['DAY', 'IOC'],
    note: 'Kite sessions end at 6:00 AM IST; log in again each trading day.',
  },
  {
    kind: 'upstox',
    title: 'Upstox',
    logins: [
      { kind: 'login-window', label: "Through Upstox's login page (API secret)" },
      { kind: 'token', label: "Paste today's access token" },
    ],
    fields: [
      {
        name: 'baseUrl',
        label: 'Upstox API URL (optional)',
        kind: 'url',
        required: false,
        placeholder: 'https://api.upstox.com',
      },
      { name: 'apiKey', label: 'API key', kind: 'text', required: true },
      { name: 'apiSecret', label: 'API secret', kind: 'secret', required: true, login: 'login-window' },
      { name: 'accessToken', label: 'Access token', kind: 'secret', required: true, login: 'token' },
    ],
    // Upstox names intraday I, and delivery and carry-forward both D.
    products: [
      { product: 'MIS', label: 'I' },
      { product: 'CNC', label: 'D' },
      { product: 'NRML', label: 'D' },
    ],
    validities: ['DAY', 'IOC'],
    note: 'Upstox tokens end at 3:30 AM IST; log in again each trading day. Orders go out from your static IP.',
  },
];
