import { z } from 'zod';
import { BrokerUrl } from '@shared/domain/session';
import type { Credentials } from '../broker';
import { brokerEntry, PRODUCTS_AS_NAMED } from '../broker-entry';
import { restAdapter } from './rest-adapter';

/** The embedded paper broker's fixed credentials (docs/api.md). */
export const PAPER_CREDENTIALS: Credentials = { apiKey: 'paper', apiSecret: 'paper' };

const Key = z.string().min(1).max(256);

/** A broker speaking the REST dialect of docs/api.md: where, the app's key and its secret. */
const RestProfile = z.strictObject({
  kind: z.literal('rest'),
  /** https, or plain http to loopback only (`broker-url.ts`): the secret and token travel here. */
  baseUrl: BrokerUrl,
  apiKey: Key,
  apiSecret: Key,
});
type RestProfile = z.infer<typeof RestProfile>;

/** A remote broker of the REST dialect in the broker registry (docs/api.md). */
export const restEntry = brokerEntry<RestProfile>({
  describe: {
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
  },
  profile: RestProfile,
  adapter: () => restAdapter,
  label: (url) => url.host,
  credentials: (p) => ({ apiKey: p.apiKey, apiSecret: p.apiSecret }),
  fromCommandLine: (c) => ({
    kind: 'rest',
    baseUrl: c.brokerUrl,
    apiKey: c.apiKey ?? 'paper',
    apiSecret: c.apiSecret ?? 'paper',
  }),
  remembered: (saved, s) => (s.apiSecret ? { ...saved, apiSecret: s.apiSecret } : null),
});

/** The embedded paper broker (docs/api.md): the REST dialect on loopback, nothing to ask. */
export const paperEntry = brokerEntry<{ kind: 'paper' }>({
  describe: {
    kind: 'paper',
    title: 'Paper broker (simulated, no account needed)',
    logins: [{ kind: 'none', label: 'No login needed' }],
    fields: [],
    products: PRODUCTS_AS_NAMED,
    validities: ['DAY', 'IOC'],
  },
  profile: z.strictObject({ kind: z.literal('paper') }),
  adapter: () => restAdapter,
  label: () => 'Paper broker',
  credentials: () => PAPER_CREDENTIALS,
  remembered: (saved) => saved,
});
