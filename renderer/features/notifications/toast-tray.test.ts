import { describe, expect, it } from 'vitest';
import { MAX_TOASTS, toastsAfterRaise, type Toast } from '../../state/toast-store';
import { expiresAfter, trayOf } from './toast-tray';

const fill = (n: number): Toast => ({ id: `f${n}`, tone: 'good', title: `Complete: BUY ${n} INFY`, detail: null });
const reject = (n: number): Toast => ({ id: `r${n}`, tone: 'bad', title: `Rejected: SELL ${n} ITC`, detail: null });

describe('the toast tray', () => {
  it('lets a fill go by itself after a few seconds, and keeps a rejection and a sticky toast', () => {
    expect(expiresAfter(fill(1))).toBe(6_000);
    expect(expiresAfter(reject(1))).toBeNull();
    expect(expiresAfter({ ...fill(1), sticky: true })).toBeNull();
  });

  it('shows the newest and collapses the rest, counting the rejections among them', () => {
    const tray = trayOf([reject(1), fill(2), reject(3), fill(4), fill(5), fill(6)]);
    expect(tray.shown?.id).toBe('f6');
    expect(tray.more.map((t) => t.id)).toEqual(['f5', 'f4', 'r3', 'f2', 'r1']);
    expect(tray.moreRejected).toBe(2);
  });

  it('puts a sticky toast first whatever came after it', () => {
    const tray = trayOf([{ ...reject(1), id: 'unprotected', sticky: true }, fill(2)]);
    expect(tray.shown?.id).toBe('unprotected');
  });

  it('never drops a rejection for a burst of fills', () => {
    let toasts: readonly Toast[] = [reject(0)];
    for (let n = 1; n <= MAX_TOASTS + 10; n++) toasts = toastsAfterRaise(toasts, fill(n));
    expect(toasts).toHaveLength(MAX_TOASTS);
    expect(toasts[0]?.id).toBe('r0');
  });
});
