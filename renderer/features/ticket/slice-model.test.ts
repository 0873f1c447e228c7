import { describe, expect, it } from 'vitest';
import { AppError } from '@shared/ipc/app-error';
import { INFY, NIFTY_FUT } from '../../test/fake-bridge';
import { legAnswer, MAX_LEGS, sendsNext, slicePlan } from './slice-model';

/** BANKNIFTY: lot 35, freeze 900 — the freeze is not a whole number of lots. */
const BANKNIFTY = { lotSize: 35, freezeQuantity: 900 };

describe('slicePlan', () => {
  it('splits 3,600 NIFTY at a freeze of 1,800 into two legs of 1,800', () => {
    expect(slicePlan(3_600, NIFTY_FUT)).toEqual({ legs: [1_800, 1_800], legSize: 1_800 });
  });

  it('puts what is left over in a last, smaller leg', () => {
    expect(slicePlan(3_750, NIFTY_FUT)?.legs).toEqual([1_800, 1_800, 150]);
  });

  it('keeps every leg a whole number of lots when the freeze is not one (BANKNIFTY 875 of 900)', () => {
    expect(slicePlan(1_750, BANKNIFTY)?.legs).toEqual([875, 875]);
  });

  it('offers nothing at or under the limit, for a quantity that is not whole lots, or past the most legs', () => {
    expect(slicePlan(1_800, NIFTY_FUT)).toBeNull();
    expect(slicePlan(3_610, NIFTY_FUT)).toBeNull();
    expect(slicePlan(1_800 * MAX_LEGS, NIFTY_FUT)?.legs).toHaveLength(MAX_LEGS);
    expect(slicePlan(1_800 * MAX_LEGS + 75, NIFTY_FUT)).toBeNull();
    expect(slicePlan(50_000, INFY)).toBeNull();
  });
});

describe('sendsNext', () => {
  const placed = (status: 'OPEN' | 'COMPLETE' | 'REJECTED') =>
    legAnswer({ state: 'placed', orderId: '1', clientOrderId: 'td-1', status, recovered: false }, undefined);

  it('sends the next leg only after one the broker took in and did not reject', () => {
    expect(sendsNext(placed('COMPLETE'))).toBe(true);
    expect(sendsNext(placed('OPEN'))).toBe(true);
    expect(sendsNext(placed('REJECTED'))).toBe(false);
  });

  it('stops after a refusal and after a leg not yet confirmed', () => {
    const refused = new AppError({ kind: 'bad_request', message: 'NSE is closed', field: 'variety' });
    expect(sendsNext(legAnswer(undefined, refused))).toBe(false);
    const lost = new AppError({ kind: 'disconnected', message: 'link dropped' });
    expect(sendsNext(legAnswer(undefined, lost))).toBe(false);
    expect(sendsNext(legAnswer({ state: 'unconfirmed', clientOrderId: 'td-2', detail: 'checking' }, undefined))).toBe(
      false,
    );
  });
});
