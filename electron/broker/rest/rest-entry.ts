import { z } from 'zod';
import { BrokerUrl } from '@shared/domain/session';
import type { Credentials } from '../broker';
import { PAPER_BROKER, REST_BROKER } from '@shared/domain/shipped-brokers';
import { brokerEntry } from '../broker-entry';
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
  describe: REST_BROKER,
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
  describe: PAPER_BROKER,
  profile: z.strictObject({ kind: z.literal('paper') }),
  adapter: () => restAdapter,
  label: () => 'Paper broker',
  credentials: () => PAPER_CREDENTIALS,
  remembered: (saved) => saved,
});
