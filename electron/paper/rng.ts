/**
 * Small seeded pseudo-random generators.
 *
 * The paper broker must be reproducible: the same seed gives the same universe, the same
 * candle history and the same sequence of price moves, so a failing test or a demo can be
 * replayed. `Math.random` cannot be seeded, hence these.
 */

/** A generator of floats in [0, 1). */
export type Rng = () => number;

/** mulberry32: tiny, fast, good enough for prices (not for cryptography). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a 32-bit hash of a string: stable ids and per-instrument sub-seeds. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A generator derived from the broker seed and a label, independent of every other label. */
export function deriveRng(seed: number, label: string): Rng {
  return mulberry32(fnv1a(`${seed}:${label}`));
}

/** A standard normal deviate (Box–Muller), for price steps. */
export function normal(rng: Rng): number {
  const u = Math.max(rng(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}
