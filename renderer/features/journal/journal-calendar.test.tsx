import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { JournalCalendar } from './journal-calendar';

/**
 * The P&L calendar (docs/journal.md §The calendar): each traded day says its net with its sign —
 * colour only repeats it — names itself to a screen reader, and is a button; the month's total is
 * under the grid.
 */
describe('JournalCalendar', () => {
  const totals = new Map([
    ['2026-11-23', { date: '2026-11-23', trades: 2, net: 1234.5 }],
    ['2026-11-24', { date: '2026-11-24', trades: 1, net: -320.4 }],
    ['2026-10-31', { date: '2026-10-31', trades: 1, net: 999 }],
  ]);

  it('writes each day’s net with its sign, names it, and totals the month only', async () => {
    const onSelect = vi.fn();
    render(<JournalCalendar month="2026-11" totals={totals} selected={null} onSelect={onSelect} />);
    const grid = screen.getByRole('table', { name: 'P&L calendar' });
    const up = within(grid).getByRole('button', { name: 'Mon 23 Nov: net +₹1,234.50 from 2 trades' });
    const down = within(grid).getByRole('button', { name: 'Tue 24 Nov: net −₹320.40 from 1 trade' });
    expect(up.textContent).toBe('23+₹1,2352 trades');
    expect(down.textContent).toBe('24−₹3201 trade');
    expect(within(grid).getAllByRole('button')).toHaveLength(2);
    expect(screen.getByTestId('jcal-month-net').textContent).toBe('+₹914.10');
    await userEvent.setup().click(down);
    expect(onSelect).toHaveBeenCalledWith('2026-11-24');
  });
});
