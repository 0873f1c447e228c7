import { describe, expect, it } from 'vitest';
import { INFY, NIFTY_CE, NIFTY_FUT } from '../../test/fake-bridge';
import { paletteEntries, type PaletteAction } from './palette-model';

const noop = (): void => undefined;
const ACTIONS: PaletteAction[] = [
  { id: 'export-trades', label: 'Export trades as CSV', run: noop },
  { id: 'export-orders', label: 'Export orders as CSV', run: noop },
  { id: 'show-options', label: 'Show option chain', run: noop },
];
const UNIVERSE = [INFY, NIFTY_FUT, NIFTY_CE];

const labels = (text: string): string[] =>
  paletteEntries(text, ACTIONS, UNIVERSE).map((e) =>
    e.kind === 'action' ? e.action.label : `${e.side ?? 'select'} ${e.instrument.tradingsymbol}`,
  );

describe('paletteEntries', () => {
  it('lists every action before anything is typed', () => {
    expect(labels('')).toEqual(ACTIONS.map((a) => a.label));
  });

  it('finds actions by every word typed, in any order', () => {
    expect(labels('trades export')).toEqual(['Export trades as CSV']);
  });

  it('finds instruments by symbol or name after the actions', () => {
    expect(labels('infy')).toEqual(['select INFY']);
    expect(labels('nifty')).toEqual(['select NIFTY26NOVFUT', 'select NIFTY26NOV24500CE']);
  });

  it('turns "buy …" and "sell …" into tickets on that side for the instruments found', () => {
    expect(labels('buy infy')).toEqual(['BUY INFY']);
    expect(labels('Sell nifty ce')).toEqual(['SELL NIFTY26NOV24500CE']);
  });

  it('says nothing matches rather than guessing', () => {
    expect(labels('zzzz')).toEqual([]);
  });
});
