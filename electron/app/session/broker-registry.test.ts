import { describe, expect, it } from 'vitest';
import { BrokerDescriptor } from '@shared/domain/broker-descriptor';
import { SHIPPED_BROKERS } from '@shared/domain/shipped-brokers';
import { BROKER_ENTRIES, BROKERS, BrokerRegistry } from './broker-registry';

describe('the broker registry', () => {
  it('lists each shipped kind with its descriptor, in order (what the renderer’s component tests read)', () => {
    expect(BROKERS.descriptors()).toEqual(SHIPPED_BROKERS);
  });

  it('sends the renderer descriptors its contract accepts, named as the profiles they judge', () => {
    for (const d of BROKERS.descriptors()) {
      expect(BrokerDescriptor.parse(d)).toEqual(d);
      // A kind offers its login page exactly when its entry has one; no field may pose as the kind.
      const offersPage = d.logins.some((l) => l.kind === 'login-window');
      expect(offersPage).toBe(BROKERS.entry(d.kind)?.loginPage !== undefined);
      expect(d.fields.map((f) => f.name)).not.toContain('kind');
    }
  });

  it('refuses two entries of one kind', () => {
    expect(() => new BrokerRegistry([...BROKER_ENTRIES, BROKER_ENTRIES[1]!])).toThrow(
      'two broker entries of kind rest',
    );
  });
});
