import type { DeskPanel, DeskView, LinkGroup, PanelId, WindowId } from '@shared/domain/workstation';
import { MAIN_WINDOW } from '@shared/domain/workstation';

/**
 * The renderer's panel registry (docs/workstation.md §A panel joins the workstation), without
 * React: every kind of panel the desk can move between windows, its title, whether it follows a
 * colour group, and the link a new desk starts it with. Main knows kinds only as these names.
 * What each kind draws is `panel-views.tsx`, loaded per kind.
 */
export interface PanelKindInfo {
  readonly kind: string;
  readonly title: string;
  /** Follows a colour group's instrument (a chip in its header picks the group). */
  readonly linkable: boolean;
  /** In no group on a new desk (a chain keeps the underlying the trader chose until linked). */
  readonly unlinkedAtFirst?: boolean;
}

export const PANEL_KINDS = [
  { kind: 'ticket', title: 'Ticket', linkable: true },
  { kind: 'watchlist', title: 'Watchlist', linkable: true },
  { kind: 'chart', title: 'Chart', linkable: true },
  { kind: 'options', title: 'Option chain', linkable: true, unlinkedAtFirst: true },
  { kind: 'funds', title: 'Funds', linkable: false },
  { kind: 'depth', title: 'Depth', linkable: true },
  { kind: 'ladder', title: 'Ladder', linkable: true },
  { kind: 'holdings', title: 'Holdings', linkable: false },
  { kind: 'orders', title: 'Orders', linkable: false },
  { kind: 'trades', title: 'Trades', linkable: false },
  { kind: 'gtt', title: 'GTT', linkable: false },
  { kind: 'brackets', title: 'Brackets', linkable: false },
  { kind: 'positions', title: 'Positions', linkable: false },
  { kind: 'basket', title: 'Basket', linkable: false },
] as const satisfies readonly PanelKindInfo[];

export type KnownKind = (typeof PANEL_KINDS)[number]['kind'];

/** The group every linkable panel of a new desk is in, so the main window works as one linked desk. */
export const DEFAULT_GROUP: LinkGroup = 'red';

export function kindInfo(kind: string): PanelKindInfo | undefined {
  return PANEL_KINDS.find((k) => k.kind === kind);
}

/** A panel's title: its kind's, numbered for another one of a kind ("Chart 2"). */
export function panelTitle(panel: Pick<DeskPanel, 'id' | 'kind'>): string {
  const title = kindInfo(panel.kind)?.title ?? panel.kind;
  const n = /-(\d+)$/.exec(panel.id)?.[1];
  return n ? `${title} ${n}` : title;
}

/** A kind's own panel as a new desk has it: in the main window, linked if it can be. */
export function ownPanel(kind: string): DeskPanel {
  const info = kindInfo(kind);
  const linked = info?.linkable === true && info.unlinkedAtFirst !== true;
  return { id: kind, kind, window: MAIN_WINDOW, link: linked ? DEFAULT_GROUP : null, instrument: null, options: {} };
}

/** Panel `id` as the desk has it: its entry, or a kind's own panel's default. */
export function panelOn(view: DeskView | undefined, id: PanelId, kind: string): DeskPanel {
  return view?.desk.panels.find((p) => p.id === id) ?? ownPanel(kind);
}

/** Every panel on the desk, the kinds' own included, in the registry's order. */
export function allPanels(view: DeskView | undefined): DeskPanel[] {
  const panels = view?.desk.panels ?? [];
  const own = PANEL_KINDS.map((k) => panels.find((p) => p.id === k.kind) ?? ownPanel(k.kind));
  const others = panels.filter((p) => p.id !== p.kind && kindInfo(p.kind));
  return [...own, ...others];
}

/** The panels window `id` draws. */
export function panelsIn(view: DeskView | undefined, id: WindowId): DeskPanel[] {
  return allPanels(view).filter((p) => p.window === id);
}

/** The instrument a panel shows by its link: the group's, or its own when it is not linked. Null: none chosen yet. */
export function linkedInstrument(view: DeskView | undefined, panel: DeskPanel): number | null {
  if (panel.link === null) return panel.instrument;
  return view?.desk.links[panel.link] ?? null;
}
