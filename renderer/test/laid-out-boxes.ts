/**
 * happy-dom lays nothing out: every box measures 0 × 0, so a virtualized list renders no rows.
 * `layOutBoxes()` gives every element a 1000 × 600 client box until `restoreBoxes()`.
 */
const BOX = { clientHeight: 600, clientWidth: 1000 } as const;
const real = Object.fromEntries(
  Object.keys(BOX).map((k) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k)]),
);

export function layOutBoxes(): void {
  for (const [k, v] of Object.entries(BOX)) {
    Object.defineProperty(HTMLElement.prototype, k, { configurable: true, get: () => v });
  }
}

export function restoreBoxes(): void {
  for (const [k, d] of Object.entries(real)) {
    if (d) Object.defineProperty(HTMLElement.prototype, k, d);
    else Reflect.deleteProperty(HTMLElement.prototype, k);
  }
}
