import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarketDepth } from '@shared/domain/market';
import { INFY_DEPTH } from '@shared/testing/market-fixtures';
import { DepthLadder } from './depth-ladder';
import type * as DepthLevelModule from './depth-level';
import type { DepthLevelProps } from './depth-level';

/** Every render of a level's cells, by side and rank: the real cells, counted. */
const renders: string[] = [];
vi.mock('./depth-level', async (importOriginal) => {
  const real = await importOriginal<typeof DepthLevelModule>();
  return {
    ...real,
    DepthLevelCells: (props: DepthLevelProps) => {
      renders.push(`${props.side}${props.rank}`);
      return real.DepthLevelCells(props);
    },
  };
});

/** INFY's book with three offers: the last two levels show no offer. */
const DEPTH: MarketDepth = { ...INFY_DEPTH, sell: INFY_DEPTH.sell.slice(0, 3) };

const pick = vi.fn();

function ladder(depth: MarketDepth) {
  return (
    <DepthLadder depth={depth} totalBuyQuantity={11_874} totalSellQuantity={12_406} tickSize={0.05} onPick={pick} />
  );
}

beforeEach(() => {
  renders.length = 0;
  pick.mockClear();
});

describe('DepthLadder', () => {
  it('shows each level best first with its orders and quantity, the book totals, and blanks for missing offers', () => {
    render(ladder(DEPTH));
    const table = screen.getByRole('table', { name: 'Market depth' });
    const rows = within(table).getAllByRole('row');
    // header, five levels, totals
    expect(rows).toHaveLength(7);
    expect(rows[1]?.textContent).toBe(['412', '9', '1,499.95', '1,500.05', '3', '297'].join(''));
    expect(rows[5]?.textContent).toBe(['1,067', '6', '1,499.75'].join(''));
    expect(within(table).getByTestId('depth-total-buy').textContent).toBe('11,874');
    expect(within(table).getByTestId('depth-total-sell').textContent).toBe('12,406');
    expect(within(table).getAllByRole('button')).toHaveLength(8);
  });

  it('prices the ticket at the level clicked', async () => {
    render(ladder(DEPTH));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Offer 1,500.10' }));
    expect(pick).toHaveBeenCalledWith(1500.1);
  });

  it('tells a keyboard or screen-reader user what a price does, not only a pointer hovering it', () => {
    render(ladder(DEPTH));
    const button = screen.getByRole('button', { name: 'Offer 1,500.10' });
    const described = document.getElementById(button.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('Prices the ticket at this level (LIMIT)');
  });

  it('re-renders only the level a tick changed, not the other nine', () => {
    const view = render(ladder(DEPTH));
    expect(renders).toHaveLength(10);
    renders.length = 0;
    const next: MarketDepth = {
      buy: DEPTH.buy.map((l, k) => (k === 1 ? { ...l, quantity: 480 } : { ...l })),
      sell: DEPTH.sell.map((l) => ({ ...l })),
    };
    view.rerender(ladder(next));
    expect(renders).toEqual(['bid2']);
    expect(screen.getAllByRole('row')[2]?.textContent?.startsWith('480')).toBe(true);
  });
});
