import { describe, expect, it } from 'vitest';
import type { DeskPanel, DeskView } from '@shared/domain/workstation';
import { ownPanel, panelsIn, panelTitle } from './panel-kinds';
import { shownToken, windowGroup } from './link-model';
import { chainUnderlyingOf } from './use-chain-follows-link';
import { INFY, NIFTY_CE, NIFTY_FUT } from '../../test/fake-bridge';

function viewOf(panels: DeskPanel[], links: DeskView['desk']['links'] = {}): DeskView {
  const windows = [...new Set(['main', ...panels.map((p) => p.window)])].map((id) => ({
    id,
    bounds: null,
    display: null,
    orientation: 'horizontal' as const,
  }));
  return { desk: { windows, panels, links }, open: ['main'], opener: 'page', workspaces: [], loaded: null };
}

describe('the colour groups as a page reads them', () => {
  it('a new desk is one linked main window: its own group is group 1, every panel in it', () => {
    const view = viewOf([]);
    expect(windowGroup(view, 'main')).toBe('red');
    expect(panelsIn(view, 'main').map((p) => p.id)).toContain('chart');
    expect(panelsIn(view, 'w1')).toEqual([]);
  });

  it('a pop-out’s own group is its watchlist’s, else its ticket’s, else its first linked panel’s', () => {
    const chart = { ...ownPanel('chart'), window: 'w1', link: 'blue' as const };
    expect(windowGroup(viewOf([chart]), 'w1')).toBe('blue');
    const ticket = { ...ownPanel('ticket'), window: 'w1', link: 'green' as const };
    expect(windowGroup(viewOf([chart, ticket]), 'w1')).toBe('green');
    const watchlist = { ...ownPanel('watchlist'), window: 'w1', link: null };
    expect(windowGroup(viewOf([chart, ticket, watchlist]), 'w1')).toBe('green');
  });

  it('a panel in the window’s own group shows the page’s selection; in another group, that group’s; unlinked, its own', () => {
    const view = viewOf([], { red: 11, blue: 22 });
    const chart = ownPanel('chart');
    expect(shownToken(view, chart, 'red', 5)).toBe(5);
    expect(shownToken(view, { ...chart, link: 'blue' }, 'red', 5)).toBe(22);
    expect(shownToken(view, { ...chart, link: 'green' }, 'red', 5)).toBe(5); // the group has none yet
    expect(shownToken(view, { ...chart, link: null, instrument: 33 }, 'red', 5)).toBe(33);
    expect(shownToken(view, null, 'red', 5)).toBe(5); // outside the desk: as before
  });

  it('another panel of a kind is numbered in its title', () => {
    expect(panelTitle({ id: 'chart-2', kind: 'chart' })).toBe('Chart 2');
    expect(panelTitle({ id: 'options', kind: 'options' })).toBe('Option chain');
  });
});

describe('a linked option chain', () => {
  it('shows the options of the group’s instrument: a stock’s own, a derivative’s underlying; none for an instrument without options', () => {
    const underlyings = ['NIFTY', 'INFY'];
    expect(chainUnderlyingOf(INFY, underlyings)).toBe('INFY');
    expect(chainUnderlyingOf(NIFTY_FUT, underlyings)).toBe('NIFTY');
    expect(chainUnderlyingOf(NIFTY_CE, underlyings)).toBe('NIFTY');
    expect(chainUnderlyingOf({ ...INFY, tradingsymbol: 'NIFTY 50', name: 'NIFTY' }, underlyings)).toBe('NIFTY');
    expect(chainUnderlyingOf(INFY, ['NIFTY'])).toBeNull();
    expect(chainUnderlyingOf(undefined, underlyings)).toBeNull();
  });

  it('is in no group on a new desk, so it keeps the underlying the trader chose', () => {
    expect(ownPanel('options').link).toBeNull();
    expect(ownPanel('depth').link).toBe('red');
  });
});
