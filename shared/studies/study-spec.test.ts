import { describe, expect, it } from 'vitest';
import { formatStudies, parseStudies, studyLabel, studyLines, type StudySpec } from './study-spec';

describe('a chart’s chosen studies as a panel option', () => {
  const chosen: StudySpec[] = [
    { kind: 'vwap' },
    { kind: 'ema', period: 20 },
    { kind: 'sma', period: 50 },
    { kind: 'bb', period: 20, width: 2 },
    { kind: 'rsi', period: 14 },
  ];

  it('round-trips through its text and reads as the trader would', () => {
    expect(formatStudies(chosen)).toBe('vwap;ema:20;sma:50;bb:20:2;rsi:14');
    expect(parseStudies(formatStudies(chosen))).toEqual(chosen);
    expect(chosen.map(studyLabel)).toEqual(['VWAP', 'EMA 20', 'SMA 50', 'BB 20, 2', 'RSI 14']);
    expect(parseStudies('')).toEqual([]);
  });

  it('refuses text that is not a study, naming it and the field', () => {
    expect(() => parseStudies('ema:0')).toThrow('study "ema:0": period is not valid');
    expect(() => parseStudies('macd:12')).toThrow(/study "macd:12"/);
  });

  it('draws Bollinger as three lines over the price and RSI in its own pane', () => {
    const bars = Array.from({ length: 30 }, (_, i) => ({ high: i + 2, low: i, close: i + 1, volume: 10 }));
    const bb = studyLines({ kind: 'bb', period: 20, width: 2 }, bars, () => 'day');
    expect(bb.map((l) => [l.id, l.pane])).toEqual([
      ['bb:20:2/upper', 'price'],
      ['bb:20:2/middle', 'price'],
      ['bb:20:2/lower', 'price'],
    ]);
    expect(studyLines({ kind: 'rsi', period: 14 }, bars, () => 'day')[0]?.pane).toBe('oscillator');
    expect(studyLines({ kind: 'vwap' }, bars, () => 'day')[0]?.values).toHaveLength(30);
  });
});
