import { renderHook } from '@testing-library/react';
import type { CreatePriceLineOptions, IRange, ISeriesPrimitive } from 'lightweight-charts';
import { describe, expect, it, vi } from 'vitest';
import { priceLinesOf } from './candle-model';
import { usePriceLines, type CandleChart } from './use-candle-chart';

/**
 * The candle series as far as its price lines go: lightweight-charts draws on a canvas, which
 * the test page has not. `redraw` is the chart's redraw after its price range moved: it tells
 * the primitives on the series, as the library does.
 */
function chartShowing(range: IRange<number>) {
  let visible = range;
  const lines = new Set<{ options: CreatePriceLineOptions }>();
  const primitives: ISeriesPrimitive[] = [];
  const created = vi.fn();
  const candles = {
    createPriceLine(options: CreatePriceLineOptions) {
      created(options.id);
      const line = {
        options,
        applyOptions: (o: Partial<CreatePriceLineOptions>) => (line.options = { ...line.options, ...o }),
      };
      lines.add(line);
      return line;
    },
    removePriceLine: (line: { options: CreatePriceLineOptions }) => lines.delete(line),
    priceScale: () => ({ getVisibleRange: () => visible }),
    attachPrimitive: (p: ISeriesPrimitive) => primitives.push(p),
  };
  return {
    api: { chart: {}, candles, volume: {} } as unknown as CandleChart,
    /** The lines the chart holds, by price: "1398:near:price". */
    held: () => [...lines].map((l) => `${l.options.price}:${l.options.id}`).sort(),
    created,
    redraw(next: IRange<number>) {
      visible = next;
      for (const p of primitives) p.updateAllViews?.();
    },
  };
}

const buy = (orderId: string, price: number) => ({
  orderId,
  transactionType: 'BUY' as const,
  orderType: 'LIMIT' as const,
  pendingQuantity: 1,
  price,
  triggerPrice: null,
});

// 300 resting buys 8% under a market at 1,400, and one near it: the chart shows 1,390–1,410.
const far = Array.from({ length: 300 }, (_, i) => buy(`far${i}`, 1288));
const NEAR = '1398:near:price';

describe('working orders as the chart’s price lines', () => {
  it('holds only the lines near the prices on screen, and draws the others once the trader scrolls down to them', async () => {
    const chart = chartShowing({ from: 1390, to: 1410 });
    renderHook(() => usePriceLines(chart.api, priceLinesOf([...far, buy('near', 1398)], null, 0.05), 'dark'));
    await vi.waitFor(() => expect(chart.held()).toEqual([NEAR]));

    chart.redraw({ from: 1280, to: 1300 });
    await vi.waitFor(() => expect(chart.held()).toHaveLength(300));
    expect(chart.held()).not.toContain(NEAR);
    expect(chart.held()[0]).toBe('1288:far0:price');

    // Back up to the market: the far lines go again.
    chart.redraw({ from: 1392, to: 1412 });
    await vi.waitFor(() => expect(chart.held()).toEqual([NEAR]));
  });

  it('a far order changing (the churn of a large book) leaves the lines on screen alone; a near one moves its line', async () => {
    const chart = chartShowing({ from: 1390, to: 1410 });
    const { rerender } = renderHook(
      ({ orders }) => usePriceLines(chart.api, priceLinesOf(orders, null, 0.05), 'dark'),
      {
        initialProps: { orders: [...far, buy('near', 1398)] },
      },
    );
    await vi.waitFor(() => expect(chart.held()).toEqual([NEAR]));
    chart.created.mockClear();

    rerender({ orders: [...far.slice(1), buy('far0', 1287.95), buy('near', 1398)] });
    rerender({ orders: [...far, buy('near', 1398.5)] });
    await vi.waitFor(() => expect(chart.held()).toEqual(['1398.5:near:price']));
    expect(chart.created).not.toHaveBeenCalled();
  });
});
