import type { BrokerAdapter } from '../adapter';
import { KiteBroker, kiteTransportOptions, type KiteBrokerOptions } from './kite-broker';

/**
 * Kite Connect v3 (docs/kite.md): its `token api_key:access_token` header and `{status,data}`
 * errors, with the profile's own settings (market protection).
 */
export function kiteAdapter(options: KiteBrokerOptions = {}): BrokerAdapter {
  return {
    transport: (credentials) => kiteTransportOptions(credentials.apiKey),
    connect: (link) =>
      new KiteBroker(link.baseUrl, link.label, link.credentials.apiKey, link.transport, link.auth, options),
  };
}
