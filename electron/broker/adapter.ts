import type { AuthSource } from './auth-source';
import type { Broker, Credentials } from './broker';
import type { RestTransport, TransportOptions } from './rest/rest-transport';

/**
 * The parts of the shared transport a dialect decides: its auth header, its error reading, its
 * "token refused" test, whether its order writes count apart from its other requests.
 */
export type DialectTransport = Pick<TransportOptions, 'authorize' | 'classify' | 'tokenRefused' | 'orderWritesApart'>;

/** What the trading core hands an adapter to build its broker on. */
export interface BrokerLink {
  /** The broker's root, as the profile resolved it. */
  readonly baseUrl: string;
  /** The broker's name on screen (the session's `brokerLabel`). */
  readonly label: string;
  readonly credentials: Credentials;
  /** The session: the token per request, one re-login on a refused token, the expiry. */
  readonly auth: AuthSource;
  /** The core's HTTP transport (pool, retries, limits, fair queuing), speaking `transport`'s dialect. */
  readonly transport: RestTransport;
}

/**
 * One broker adapter as the core sees it (docs/brokers.md §Broker adapters): the dialect's
 * knobs for the shared transport, and how to build the `Broker` on it. The app keeps one per
 * profile kind in its registry (`electron/app/session/broker-registry.ts`); the core never names an
 * adapter.
 */
export interface BrokerAdapter {
  /** The dialect's transport knobs (default: docs/api.md's bearer token and problem documents). */
  readonly transport?: (credentials: Credentials) => DialectTransport;
  connect(link: BrokerLink): Broker;
}
