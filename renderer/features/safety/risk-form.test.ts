import { describe, expect, it } from 'vitest';
import { NO_RISK_LIMITS } from '@shared/domain/risk';
import { draftOf, limitsOf } from './risk-form';

describe('the risk limits form', () => {
  it('empty rows are off; typed figures keep their hard or soft choice; Indian grouping is read', () => {
    const draft = {
      ...draftOf(NO_RISK_LIMITS),
      maxOrderValue: { value: '5,00,000', hard: false },
      maxLots: { value: '4', hard: true },
    };
    expect(limitsOf(draft)).toEqual({
      value: { ...NO_RISK_LIMITS, maxOrderValue: { value: 500_000, hard: false }, maxLots: { value: 4, hard: true } },
    });
  });
  it('a bad figure names its row; nothing is saved', () => {
    const draft = {
      ...draftOf(NO_RISK_LIMITS),
      maxQuantity: { value: '2.5', hard: true },
      dailyLossLimit: { value: '-5', hard: true },
    };
    expect(limitsOf(draft)).toEqual({
      errors: {
        maxQuantity: 'Enter a whole number',
        dailyLossLimit: 'Enter a number above zero, or leave it empty for no limit',
      },
    });
  });
  it('stored limits come back as the same draft', () => {
    const limits = { ...NO_RISK_LIMITS, maxPriceDeviationPct: { value: 2.5, hard: false } };
    const again = limitsOf(draftOf(limits));
    expect(again.value).toEqual(limits);
  });
});
