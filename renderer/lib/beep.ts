/**
 * A short generated tone for order notifications: no audio files, nothing remote (the CSP
 * allows no media from elsewhere, and a trading app should not fetch sounds anyway).
 */
let ctx: AudioContext | null = null;

/** Plays a ~120 ms beep; higher for good news, lower for bad. Silent where audio is unavailable. */
export function beep(tone: 'good' | 'bad' | 'neutral'): void {
  try {
    if (typeof AudioContext === 'undefined') return;
    ctx ??= new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = tone === 'good' ? 880 : tone === 'bad' ? 220 : 440;
    gain.gain.setValueAtTime(0.08, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.12);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.13);
  } catch {
    // Audio is a nicety; never let it break a notification.
  }
}
