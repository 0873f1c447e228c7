import { describe, expect, it } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import type { Broker } from '../../broker/broker';
import { InstrumentCatalog } from './instrument-catalog';

const instrument = (exchange: Instrument['exchange'], tradingsymbol: string, token: number): Instrument => ({
  instrumentToken: token,
  exchange,
  tradingsymbol,
  name: tradingsymbol,
  segment: exchange,
  instrumentType: 'EQ',
  lotSize: 1,
  tickSize: 0.05,
  freezeQuantity: 100_000,
  multiplier: 1,
  expiry: null,
  strike: null,
  lastPrice: 100,
});

/** A broker that only lists instruments, counting its reads. */
function listingBroker(list: Instrument[]): { broker: Broker; reads: () => number } {
  let reads = 0;
  const broker = {
    listInstruments: async () => {
      reads += 1;
      return list;
    },
  } as unknown as Broker;
  return { broker, reads: () => reads };
}

describe('InstrumentCatalog', () => {
  it("serves every window's list, whole or one exchange's, from the one read made at login", async () => {
    const { broker, reads } = listingBroker([instrument('NSE', 'INFY', 1), instrument('BSE', 'INFY', 2)]);
    const catalog = new InstrumentCatalog(broker);
    catalog.warm();
    const [all, nse, again] = await Promise.all([catalog.list(), catalog.list('NSE'), catalog.list()]);
    expect(all.map((i) => i.instrumentToken)).toEqual([1, 2]);
    expect(nse.map((i) => i.instrumentToken)).toEqual([1]);
    expect(again).toBe(all);
    expect(await catalog.find('BSE', 'INFY')).toMatchObject({ instrumentToken: 2 });
    expect(reads()).toBe(1);
  });
});
