import type { BrokerAdapter } from '../adapter';
import { UpstoxBroker, upstoxTransportOptions, type UpstoxBrokerOptions } from './upstox-broker';

/**
 * Upstox (docs/upstox.md §The adapter): its bearer token and `{status, errors[]}` errors, the
 * 401 of an ended token (never the 403 of the static-IP refusal), with the profile's settings.
 */
export function upstoxAdapter(options: UpstoxBrokerOptions = {}): BrokerAdapter {
  return {
    transport: () => upstoxTransportOptions(),
    connect: (link) => new UpstoxBroker(link.label, link.transport, link.auth, options),
  };
}
