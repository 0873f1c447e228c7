import { describe, expect, it } from 'vitest';
import { InFlightCoalescer } from './in-flight-coalescer';

describe('in-flight coalescing of identical reads', () => {
  it('shares one fetch between concurrent identical calls, and fetches afresh afterwards', async () => {
    const c = new InFlightCoalescer();
    let fetches = 0;
    const fetch = async (): Promise<number> => {
      fetches += 1;
      await new Promise((r) => setTimeout(r, 5));
      return fetches;
    };
    const results = await Promise.all([
      c.run('/positions', fetch),
      c.run('/positions', fetch),
      c.run('/positions', fetch),
    ]);
    expect(results).toEqual([1, 1, 1]);
    expect(await c.run('/positions', fetch)).toBe(2);
    expect(c.size).toBe(0);
  });

  it('keeps different keys apart and shares failures only among the callers of one fetch', async () => {
    const c = new InFlightCoalescer();
    const boom = (): Promise<never> => Promise.reject(new Error('down'));
    const [a, b] = await Promise.allSettled([c.run('/funds', boom), c.run('/funds', boom)]);
    expect(a.status).toBe('rejected');
    expect(b.status).toBe('rejected');
    expect(await c.run('/funds', async () => 'ok')).toBe('ok');
    expect(await Promise.all([c.run('a', async () => 1), c.run('b', async () => 2)])).toEqual([1, 2]);
  });
});
