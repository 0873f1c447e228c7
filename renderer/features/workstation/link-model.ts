import type { DeskPanel, DeskView, LinkGroup, WindowId } from '@shared/domain/workstation';
import { linkedInstrument, panelsIn } from './panel-kinds';

/**
 * How a page's own selection meets the colour groups (docs/workstation.md §Link), without React.
 *
 * A page keeps the instrument the trader last selected in it (a watchlist row, the ticket, the
 * palette): F1/F2 and the panels of its window read it at once. That selection is the instrument
 * of the window's **own group** — the group of its watchlist, else of its ticket, else of its
 * first linked panel — both ways: a selection made here sets the group (`desk.link`), and the
 * group set from another window becomes the selection here.
 */
export function windowGroup(view: DeskView | undefined, id: WindowId): LinkGroup | null {
  const here = panelsIn(view, id).filter((p) => p.link !== null);
  const by = (kind: string) => here.find((p) => p.kind === kind)?.link ?? null;
  return by('watchlist') ?? by('ticket') ?? here[0]?.link ?? null;
}

/**
 * The instrument a panel shows: in the window's own group, the page's selection (already the
 * group's); in another group, that group's; unlinked, its own. Falls back to `local` (the page's
 * selection, else the watchlist's first) while the group or the panel has none yet.
 */
export function shownToken(
  view: DeskView | undefined,
  panel: DeskPanel | null,
  group: LinkGroup | null,
  local: number | null,
): number | null {
  if (!panel || (panel.link !== null && panel.link === group)) return local;
  return linkedInstrument(view, panel) ?? local;
}
