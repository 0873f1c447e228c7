import type { DeskPanel, LinkGroup, WindowId } from '@shared/domain/workstation';
import { call } from '../../lib/ipc-client';
import { openPopout } from './popout-windows';

/**
 * What a trader does to the desk from a page (docs/workstation.md): each is one bridge call; main
 * changes the desk and every page redraws from the `desk.changed` it pushes.
 */

/** Moves `panel` into a window of its own; in the browser host this page opens it. */
export async function popOut(panel: DeskPanel, opener: 'main' | 'page'): Promise<WindowId> {
  const { window: id } = await call('desk.move', { panel, to: 'new' });
  if (opener === 'page' && !openPopout(id)) {
    // The browser refused the pop-up: the panel goes back rather than into a window nobody sees.
    await call('desk.close', { window: id });
    throw new Error('The browser blocked the new window: allow pop-ups for this page');
  }
  return id;
}

/** Moves `panel` back into window `to` (the main window). */
export async function moveTo(panel: DeskPanel, to: WindowId): Promise<void> {
  await call('desk.move', { panel, to });
}

/**
 * Puts `panel` in colour group `group` (or none). A group that has no instrument yet takes the one
 * the panel shows; a panel leaving its group keeps showing what it showed, as its own.
 */
export async function relink(panel: DeskPanel, group: LinkGroup | null, shown: number | null, groupHas: boolean) {
  if (group === null) {
    await call('desk.set', { panel: { ...panel, link: null, instrument: shown ?? panel.instrument } });
    return;
  }
  await call('desk.set', { panel: { ...panel, link: group } });
  if (!groupHas && shown !== null) await call('desk.link', { group, instrument: shown });
}
