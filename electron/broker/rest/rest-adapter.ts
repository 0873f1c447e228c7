import type { BrokerAdapter } from '../adapter';
import { RestBroker } from './rest-broker';

/** The REST dialect of docs/api.md: the transport's defaults are its own. */
export const restAdapter: BrokerAdapter = {
  connect: (link) => new RestBroker(link.baseUrl, link.label, link.transport, link.auth),
};
