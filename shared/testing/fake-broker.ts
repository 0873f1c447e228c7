import type { BrokerDescriptor } from '../domain/broker-descriptor';

/**
 * The fake broker's descriptor (electron/broker/testing/fake-broker/): a kind the app does not
 * ship, with its own products in its own names and DAY orders only. The component tests feed it
 * to the session dialog and the ticket as `brokers.list` would; main's fake entry describes itself
 * with it.
 */
export const FAKE_BROKER: BrokerDescriptor = {
  kind: 'fake',
  title: 'Fake Securities',
  logins: [{ kind: 'token', label: 'Client code and PIN' }],
  fields: [
    { name: 'baseUrl', label: 'Fake API URL', kind: 'url', required: true, placeholder: 'https://api.fake.example' },
    { name: 'apiKey', label: 'Client code', kind: 'text', required: true, help: 'As on your contract note.' },
    { name: 'apiSecret', label: 'PIN', kind: 'secret', required: true },
  ],
  products: [
    { product: 'MIS', label: 'Intraday (I)' },
    { product: 'CNC', label: 'Delivery (D)' },
  ],
  validities: ['DAY'],
  note: 'Fake Securities sessions end at midnight.',
};
