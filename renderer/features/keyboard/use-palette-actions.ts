import { useMemo } from 'react';
import type { Book } from '@shared/trading/book-csv';
import { describeError } from '../../lib/describe-error';
import { keysOf } from '../../lib/shortcuts';
import { useSettingsActions, useSoundOn, useTheme } from '../../state/settings-store';
import { useToastActions } from '../../state/toast-store';
import { useExportBook } from '../export/use-export-book';
import { SLOTS } from '../layout/slots';
import { useTabsActions } from '../layout/tabs-store';
import { useTicketActions } from '../ticket/ticket-store';
import { useSelectedInstrument } from '../ticket/use-selected-instrument';
import type { PaletteAction } from './palette-model';
import { useOverlayActions } from './overlay-store';
import { useJournalOpener } from '../journal/journal-slot';
import { useStrategyActions } from '../strategy/strategy-store';
import { useDeskPaletteActions } from '../workstation/use-desk-palette';

/** Focuses the first element matching `selector`, if there is one (a list the trader jumps to). */
function focusFirst(selector: string): void {
  document.querySelector<HTMLElement>(selector)?.focus();
}

/**
 * Every action the command palette offers (docs/desk.md §Command palette): the tickets, each
 * panel behind a tab, the exports, the switches, and jumps into the lists for the arrow keys.
 * Actions that have a key say which. Mounted with the palette, which stays mounted while closed,
 * so an export's failure still reaches the trader after the palette has closed.
 */
export function usePaletteActions(): readonly PaletteAction[] {
  const { ticketOpened } = useTicketActions();
  const selected = useSelectedInstrument();
  const { tabShown } = useTabsActions();
  const { themeToggled, soundToggled } = useSettingsActions();
  const theme = useTheme();
  const sound = useSoundOn();
  const { overlayOpened } = useOverlayActions();
  const { opened: strategyOpened } = useStrategyActions();
  const journalOpened = useJournalOpener();
  const { toastRaised } = useToastActions();
  const exporter = useExportBook({
    onError: (e) =>
      toastRaised({
        id: `export-${Date.now()}`,
        tone: 'bad',
        title: 'Export failed',
        detail: `${describeError(e)}; nothing was written`,
      }),
  });
  const { mutate: exportBook } = exporter;
  const desk = useDeskPaletteActions();

  return useMemo(() => {
    const show = (slot: { readonly id: string }, tab: string) => () => tabShown(slot.id, tab);
    const exportOf = (book: Book): PaletteAction => ({
      id: `export-${book}`,
      label: `Export ${book} as CSV`,
      run: () => exportBook(book),
    });
    const side = selected ? ` ${selected.tradingsymbol}` : ' the selected instrument';
    return [
      { id: 'buy', label: `Buy${side}`, keys: keysOf('buy'), run: () => ticketOpened('BUY', selected) },
      { id: 'sell', label: `Sell${side}`, keys: keysOf('sell'), run: () => ticketOpened('SELL', selected) },
      {
        id: 'go-watchlist',
        label: 'Go to the watchlist',
        run: () => focusFirst('[data-watch-row][tabindex="0"]'),
      },
      {
        id: 'go-orders',
        label: 'Go to the orders',
        run: () => {
          tabShown(SLOTS.orders.id, SLOTS.orders.orders);
          setTimeout(() => focusFirst('tr[data-order-id]'), 0); // once the Orders tab is drawn
        },
      },
      { id: 'show-orders', label: 'Show orders', run: show(SLOTS.orders, SLOTS.orders.orders) },
      { id: 'show-trades', label: 'Show trades and the day summary', run: show(SLOTS.orders, SLOTS.orders.trades) },
      { id: 'show-gtt', label: 'Show GTT orders', run: show(SLOTS.orders, SLOTS.orders.gtt) },
      {
        id: 'show-brackets',
        label: 'Show brackets and trailing stops',
        run: show(SLOTS.orders, SLOTS.orders.brackets),
      },
      { id: 'show-positions', label: 'Show positions', run: show(SLOTS.positions, SLOTS.positions.positions) },
      { id: 'show-basket', label: 'Show basket', run: show(SLOTS.positions, SLOTS.positions.basket) },
      { id: 'show-chart', label: 'Show chart', run: show(SLOTS.chart, SLOTS.chart.chart) },
      { id: 'show-options', label: 'Show option chain', run: show(SLOTS.chart, SLOTS.chart.options) },
      { id: 'show-depth', label: 'Show depth', run: show(SLOTS.depth, SLOTS.depth.depth) },
      { id: 'show-ladder', label: 'Show the price ladder', run: show(SLOTS.chart, SLOTS.chart.ladder) },
      { id: 'show-holdings', label: 'Show holdings', run: show(SLOTS.depth, SLOTS.depth.holdings) },
      { id: 'strategy', label: 'Open the strategy builder', run: strategyOpened },
      { id: 'journal', label: 'Open the journal (P&L calendar)', run: journalOpened },
      exportOf('orders'),
      exportOf('trades'),
      exportOf('positions'),
      {
        id: 'theme',
        label: `Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`,
        run: themeToggled,
      },
      { id: 'sound', label: sound ? 'Sound off' : 'Sound on', run: soundToggled },
      {
        id: 'shortcuts',
        label: 'Keyboard shortcuts',
        keys: keysOf('shortcuts'),
        run: () => overlayOpened('shortcuts'),
      },
      ...desk,
    ];
  }, [
    desk,
    selected,
    ticketOpened,
    tabShown,
    exportBook,
    theme,
    themeToggled,
    sound,
    soundToggled,
    overlayOpened,
    strategyOpened,
    journalOpened,
  ]);
}
