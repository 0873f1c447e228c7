import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHIPPED_BROKERS } from '@shared/domain/shipped-brokers';
import { FAKE_BROKER } from '@shared/testing/fake-broker';
import { setBridgeForTests } from '../../lib/bridge';
import { INFY, type FakeBridge } from '../../test/fake-bridge';
import { choose, installTicketBridge, renderTicket } from '../../test/ticket-harness';
import { EMPTY_DRAFT, evaluateTicket } from './ticket-model';

/**
 * The ticket offers what the session's broker takes, from its descriptor in main's registry
 * (docs/brokers.md §The broker registry): a broker the renderer was never written for names its
 * own products and takes only its own validities.
 */

let bridge: FakeBridge;

beforeEach(() => {
  bridge = installTicketBridge();
  bridge.answer('brokers.list', () => ({ ok: true, data: [...SHIPPED_BROKERS, FAKE_BROKER] }));
  bridge.answer('session.status', () => ({
    ok: true,
    data: {
      state: 'connected',
      broker: 'fake',
      brokerLabel: 'Fake Securities',
      userId: 'C123',
      scope: 'trade',
      expiresAt: null,
      version: { run: 'r', seq: 1 },
    },
  }));
});
afterEach(() => setBridgeForTests(null));

const optionsOf = (select: HTMLElement): string[] =>
  [...(select as HTMLSelectElement).options].map((o) => o.textContent ?? '');

describe('the ticket on a broker from the registry', () => {
  it('offers its products in its own names and its validities only', async () => {
    const { user, form, t } = await renderTicket(bridge);
    await choose(user, form, 'INFY', 'INFY');
    await waitFor(() => expect(optionsOf(t.getByLabelText('Product'))).toEqual(['Intraday (I)', 'Delivery (D)']));
    expect(optionsOf(t.getByLabelText('Validity'))).toEqual(['DAY']);
    expect((t.getByLabelText('Product') as HTMLSelectElement).value).toBe('CNC');
  });

  it('refuses a product or validity the broker does not take, naming the field', () => {
    const rules = {
      brokerLabel: 'Fake Securities',
      products: FAKE_BROKER.products,
      validities: FAKE_BROKER.validities,
    };
    const draft = { ...EMPTY_DRAFT, instrumentToken: INFY.instrumentToken, quantity: '1', product: 'NRML' as const };
    const judged = evaluateTicket({ ...draft, validity: 'IOC' }, INFY, rules);
    expect(judged.request).toBeNull();
    expect(judged.errors.product).toBe('Fake Securities takes no NRML orders: choose one it offers');
    expect(judged.errors.validity).toBe('Fake Securities takes no IOC orders: use DAY');
  });
});
