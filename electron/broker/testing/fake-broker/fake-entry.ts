import { z } from 'zod';
import { BrokerUrl } from '@shared/domain/session';
import { FAKE_BROKER } from '@shared/testing/fake-broker';
import { brokerEntry } from '../../broker-entry';
import { restAdapter } from '../../rest/rest-adapter';

/**
 * A broker the app does not ship, added from this folder alone: the proof that a new broker is
 * its folder and one registry line (docs/brokers.md §The broker registry). It trades through the REST
 * dialect, so a test runs it against the real paper broker's `/v1`.
 */
const FakeProfile = z.strictObject({
  kind: z.literal('fake'),
  baseUrl: BrokerUrl,
  apiKey: z.string().min(1).max(64),
  apiSecret: z.string().regex(/^\w{4,16}$/, 'PIN is 4 to 16 letters or digits'),
});

export const fakeEntry = brokerEntry<z.infer<typeof FakeProfile>>({
  describe: FAKE_BROKER,
  profile: FakeProfile,
  adapter: () => restAdapter,
  label: (url) => `Fake Securities (${url.host})`,
  credentials: (p) => ({ apiKey: p.apiKey, apiSecret: p.apiSecret }),
  fromCommandLine: (c) => ({
    kind: 'fake',
    baseUrl: c.brokerUrl,
    apiKey: c.apiKey ?? '',
    apiSecret: c.apiSecret ?? '',
  }),
  remembered: (saved, s) => (s.apiSecret ? { ...saved, apiSecret: s.apiSecret } : null),
});
