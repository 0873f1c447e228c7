import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/domain/order';
import { upsertOrders } from './use-bridge-events';

const order = (orderId: string, status: Order['status']): Order => ({ orderId, status }) as unknown as Order;

describe('applying a batch of pushed order changes to the blotter list', () => {
  it('replaces changed orders in place, adds new ones at the front, leaves the rest untouched', () => {
    const list = [order('3', 'OPEN'), order('2', 'OPEN'), order('1', 'COMPLETE')];
    const next = upsertOrders(list, [order('2', 'CANCELLED'), order('4', 'OPEN')]);
    expect(next?.map((o) => `${o.orderId}:${o.status}`)).toEqual(['4:OPEN', '3:OPEN', '2:CANCELLED', '1:COMPLETE']);
    expect(next?.[1]).toBe(list[0]); // unchanged rows keep their identity (no needless re-render)
    expect(list[1]?.status).toBe('OPEN'); // the cached list itself is not mutated
  });

  it('leaves an unloaded list alone: the first poll brings the whole list anyway', () => {
    expect(upsertOrders(undefined, [order('1', 'OPEN')])).toBeUndefined();
  });
});
