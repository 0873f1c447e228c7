import { describe, expect, it } from 'vitest';
import { NO_MTM_SETTINGS } from '@shared/domain/mtm';
import { AppError } from '@shared/ipc/app-error';
import { refusalByField } from '../layout/use-settings-form';
import { mtmDraftOf, mtmFieldOf, mtmSettingsOf } from './mtm-form';

describe('the MTM dialog fields', () => {
  const blank = mtmDraftOf(NO_MTM_SETTINGS);
  it('empty fields are off; figures with grouping are read', () => {
    expect(mtmSettingsOf(blank)).toEqual({ value: NO_MTM_SETTINGS });
    const r = mtmSettingsOf({
      ...blank,
      stop: { value: '₹20,000', unit: 'rupees' },
      target: { value: '4', unit: 'percent' },
    });
    expect(r.value).toMatchObject({
      stop: { value: 20_000, unit: 'rupees' },
      target: { value: 4, unit: 'percent' },
    });
  });
  it('names the field that is wrong', () => {
    expect(mtmSettingsOf({ ...blank, stop: { value: '-5', unit: 'rupees' } }).errors).toHaveProperty('stop');
    expect(mtmSettingsOf({ ...blank, trailFrom: { value: '30000', unit: 'rupees' } }).errors).toHaveProperty(
      'trailLock',
    );
    expect(
      mtmSettingsOf({
        ...blank,
        trailFrom: { value: '20000', unit: 'rupees' },
        trailLock: { value: '30000', unit: 'rupees' },
      }).errors,
    ).toEqual({ trailLock: 'The lock-in must be below the gain it starts at' });
    // "From 1%, lock ₹15,000" on ₹10L of funds would lock in more than the gain it starts at and
    // flatten the account the moment it engaged: the units must agree to be compared.
    expect(
      mtmSettingsOf({
        ...blank,
        trailFrom: { value: '1', unit: 'percent' },
        trailLock: { value: '15000', unit: 'rupees' },
      }).errors,
    ).toEqual({ trailLock: 'The lock-in takes the same unit as the gain it starts at' });
    expect(mtmSettingsOf({ ...blank, countdownS: '2' }).errors).toHaveProperty('countdownS');
  });
});

describe("main's refusal of the MTM levels, by field", () => {
  const refused = (fields: Array<{ field: string; message: string }>) =>
    new AppError({ kind: 'bad_request', message: 'Invalid mtm.set', field: fields[0]?.field ?? '', fields });
  it('goes on the lock-in field it names, and whole above the buttons when it names no field of the dialog', () => {
    const lock = 'The lock-in must be below the gain it starts at';
    expect(refusalByField(refused([{ field: 'settings.trail.lock', message: lock }]), mtmFieldOf)).toEqual({
      trailLock: lock,
    });
    expect(refusalByField(refused([{ field: 'settings', message: 'Invalid input' }]), mtmFieldOf)).toBeNull();
    expect(refusalByField(new AppError({ kind: 'network', message: 'Not sent' }), mtmFieldOf)).toBeNull();
  });
});
