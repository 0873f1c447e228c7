import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, REQUEST_CHANNELS, isEventName, isRequestChannel } from './contract';
import { EVENT_NAMES_PLAIN, REQUEST_CHANNEL_NAMES } from './channel-names';

describe('bridge contract', () => {
  it('keeps the preload allowlists identical to the contract', () => {
    expect([...REQUEST_CHANNEL_NAMES].sort()).toEqual([...REQUEST_CHANNELS].sort());
    expect([...EVENT_NAMES_PLAIN].sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('does not treat inherited object keys as channels', () => {
    expect(isRequestChannel('toString')).toBe(false);
    expect(isRequestChannel('__proto__')).toBe(false);
    expect(isEventName('constructor')).toBe(false);
    expect(isRequestChannel('orders.place')).toBe(true);
  });
});
