/**
 * The market's clock as the page knows it (docs/desk.md §One clock): every time the desk shows is
 * the market's. The broker stamps its orders, trades and ticks on the market's clock; the app's
 * own records (a click, a request sent, a bracket made) are on the machine's. Against the paper
 * market's simulated session the two differ by hours, so the app's times are shown shifted by the
 * market's lead over the machine, measured from each batch of ticks as it arrives (the latest
 * wins). Before the first tick, and against a real broker, the lead is zero.
 */

let leadMs = 0;

/** Notes a market time (a tick's stamp) seen at a machine time: the market's lead. */
export function noteMarketTime(marketMs: number, machineMs: number): void {
  if (Number.isFinite(marketMs) && Number.isFinite(machineMs)) leadMs = marketMs - machineMs;
}

/** A time the app recorded on the machine's clock, on the market's. Epoch ms or ISO text in, epoch ms out. */
export function onMarketClock(machine: number | string): number {
  const ms = typeof machine === 'number' ? machine : Date.parse(machine);
  return ms + leadMs;
}
