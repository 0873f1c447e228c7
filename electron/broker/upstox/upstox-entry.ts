import { z } from 'zod';
import { BrokerUrl } from '@shared/domain/session';
import { UPSTOX_API_ROOT, UPSTOX_BROKER } from '@shared/domain/shipped-brokers';
import { brokerEntry } from '../broker-entry';
import { upstoxAdapter } from './upstox-adapter';

const Key = z.string().min(1).max(256);

/**
 * An Upstox profile (docs/upstox.md §The adapter): the app's API key and either its secret (the
 * login dialog's authorization code is exchanged with it) or an access token for the day.
 */
const UpstoxProfile = z
  .strictObject({
    kind: z.literal('upstox'),
    /** Upstox's API root (default `UPSTOX_API_ROOT`); the paper broker's is `http://127.0.0.1:P/upstox`. */
    baseUrl: BrokerUrl.optional(),
    apiKey: Key,
    apiSecret: Key.optional(),
    accessToken: Key.optional(),
  })
  .refine((p) => p.apiSecret !== undefined || p.accessToken !== undefined, {
    message: 'Upstox needs the API secret (to log in) or an access token',
    path: ['apiSecret'],
  });
type UpstoxProfile = z.infer<typeof UpstoxProfile>;

/** Upstox in the broker registry (docs/upstox.md). */
export const upstoxEntry = brokerEntry<UpstoxProfile>({
  describe: UPSTOX_BROKER,
  profile: UpstoxProfile,
  adapter: () => upstoxAdapter(),
  defaultUrl: UPSTOX_API_ROOT,
  label: (url) => (url.href === new URL(UPSTOX_API_ROOT).href ? 'Upstox' : `Upstox (${url.host})`),
  // A login through Upstox's dialog brings its authorization code, exchanged with the exact
  // redirect URL it was issued for (docs/upstox.md §The adapter).
  credentials: (p, code, redirectUrl) => ({
    apiKey: p.apiKey,
    apiSecret: p.apiSecret ?? '',
    ...(p.accessToken !== undefined ? { accessToken: p.accessToken } : {}),
    ...(code !== undefined ? { requestToken: code } : {}),
    ...(redirectUrl !== undefined ? { redirectUri: redirectUrl } : {}),
  }),
  fromCommandLine: (c) => ({
    kind: 'upstox',
    baseUrl: c.brokerUrl,
    apiKey: c.apiKey ?? 'paper',
    ...(c.apiSecret !== undefined ? { apiSecret: c.apiSecret } : {}),
    ...(c.accessToken !== undefined ? { accessToken: c.accessToken } : {}),
  }),
  loginPage: {
    callbackPath: '/upstox/callback',
    // Upstox's authorization dialog redirects to the app's registered URL with `code` and the
    // `state` it was given (docs/upstox.md §Login).
    pageUrl: (p, { state, redirectUrl }) => {
      const page = new URL(`${(p.baseUrl ?? UPSTOX_API_ROOT).replace(/\/+$/, '')}/v2/login/authorization/dialog`);
      page.search = new URLSearchParams({
        client_id: p.apiKey,
        redirect_uri: redirectUrl,
        response_type: 'code',
        state,
      }).toString();
      return page.toString();
    },
    codeOf: (q) => q.get('code') || null,
  },
});
