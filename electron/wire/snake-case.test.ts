import { describe, expect, it } from 'vitest';
import { Instrument } from '@shared/domain/instrument';
import { Funds } from '@shared/domain/portfolio';
import { snakeCased } from './snake-case';

describe('a domain object in the REST dialect’s spelling', () => {
  it('keeps every field and rule under its snake_case name', () => {
    expect(Object.keys(snakeCased(Funds).shape)).toEqual([
      'available_cash',
      'used_margin',
      'available_margin',
      'opening_balance',
      'realised_pnl',
      'unrealised_pnl',
    ]);
    const wire = snakeCased(Instrument);
    expect(Object.keys(wire.shape)).toContain('instrument_token');
    expect(wire.safeParse({ instrument_token: -1 }).success).toBe(false);
    const error = wire.safeParse({}).error?.issues.map((i) => i.path.join('.'));
    expect(error).toContain('lot_size');
    expect(error).not.toContain('lotSize');
  });
});
