import { z } from 'zod';
import { BrokerUrl, MarketProtection } from '@shared/domain/session';
import { KITE_API_ROOT, KITE_BROKER } from '@shared/domain/shipped-brokers';
import { brokerEntry } from '../broker-entry';
import { kiteAdapter } from './kite-adapter';

/** Kite's login page for a real Kite Connect app; another API root (the paper broker's) serves its own. */
export const KITE_LOGIN_PAGE = 'https://kite.zerodha.com/connect/login';

const Key = z.string().min(1).max(256);

/**
 * A Kite profile (docs/kite.md): the app's API key and either its secret (the login page then
 * redirects to main with a request token: docs/session.md §Login through the broker's page) or
 * an access token the trader already has for the day; its order settings are remembered with it.
 */
const KiteProfile = z
  .strictObject({
    kind: z.literal('kite'),
    /** Kite's API root (default `KITE_API_ROOT`); the paper broker's is `http://127.0.0.1:P/kite`. */
    baseUrl: BrokerUrl.optional(),
    apiKey: Key,
    apiSecret: Key.optional(),
    accessToken: Key.optional(),
    /** Sent with MARKET and SL-M orders, on placement and modification (default -1, automatic). */
    marketProtection: MarketProtection.optional(),
    /**
     * Every call to Kite leaves over IPv4 (docs/kite.md §Static IP): on a dual-stack machine the
     * system may prefer a changing IPv6 address that Kite does not know.
     */
    ipv4Only: z.boolean().optional(),
  })
  .refine((p) => p.apiSecret !== undefined || p.accessToken !== undefined, {
    message: 'Kite needs the API secret (to log in) or an access token',
    path: ['apiSecret'],
  });
type KiteProfile = z.infer<typeof KiteProfile>;

/** A Kite profile's market protection: automatic (-1) unless it says (docs/kite.md §Market protection). */
const protectionOf = (p: KiteProfile): number => p.marketProtection ?? -1;

/** Zerodha Kite Connect v3 in the broker registry (docs/kite.md). */
export const kiteEntry = brokerEntry<KiteProfile>({
  describe: KITE_BROKER,
  profile: KiteProfile,
  adapter: (p) => kiteAdapter({ marketProtection: protectionOf(p) }),
  // Kite refuses MARKET and SL-M without market protection: automatic unless the profile says.
  settings: (p) => ({
    marketProtection: protectionOf(p),
    iocRefusedOn: ['MCX'],
    ...(p.ipv4Only === true ? { ipv4Only: true } : {}),
  }),
  defaultUrl: KITE_API_ROOT,
  label: (url) => (url.href === new URL(KITE_API_ROOT).href ? 'Zerodha Kite' : `Kite (${url.host})`),
  credentials: (p, requestToken) => ({
    apiKey: p.apiKey,
    apiSecret: p.apiSecret ?? '',
    ...(p.accessToken !== undefined ? { accessToken: p.accessToken } : {}),
    ...(requestToken !== undefined ? { requestToken } : {}),
  }),
  // Without a token for the day, the trader logs in through Kite's page from the session dialog.
  fromCommandLine: (c) => ({
    kind: 'kite',
    baseUrl: c.brokerUrl,
    apiKey: c.apiKey ?? 'paper',
    ...(c.apiSecret !== undefined ? { apiSecret: c.apiSecret } : {}),
    ...(c.accessToken !== undefined ? { accessToken: c.accessToken } : {}),
  }),
  // The day's token, if it was remembered, logs in without Kite's login page.
  remembered: (saved, s) =>
    s.accessToken ? { ...saved, accessToken: s.accessToken, ...(s.apiSecret ? { apiSecret: s.apiSecret } : {}) } : null,
  loginPage: {
    callbackPath: '/kite/callback',
    // Kite redirects to the URL registered in the app and hands `redirect_params` back (docs/kite.md §Login).
    pageUrl: (p, { state }) => {
      const root = p.baseUrl ?? KITE_API_ROOT;
      const page = new URL(root === KITE_API_ROOT ? KITE_LOGIN_PAGE : `${root.replace(/\/+$/, '')}/connect/login`);
      page.searchParams.set('v', '3');
      page.searchParams.set('api_key', p.apiKey);
      page.searchParams.set('redirect_params', new URLSearchParams({ state }).toString());
      return page.toString();
    },
    codeOf: (q) => (q.get('status') === 'success' ? q.get('request_token') || null : null),
  },
});
