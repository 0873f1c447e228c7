import { z } from 'zod';
import { OrderType, Product, TransactionType } from './order';

/**
 * The workstation: the desk's windows, the panels in each, the colour-linked groups and the
 * trader's named workspaces (docs/workstation.md). Main holds the one live desk and every page
 * draws its window from it; these schemas are what crosses the bridge and what the settings file
 * and an exported workspace file keep.
 */

/** The colour groups, as in TWS: panels of one colour follow one instrument. Numbered too, so colour is never the only sign. */
export const LINK_GROUPS = ['red', 'green', 'blue', 'yellow'] as const;
export const LinkGroup = z.enum(LINK_GROUPS);
export type LinkGroup = z.infer<typeof LinkGroup>;

/** The main window's id; pop-outs are `w1`, `w2`… */
export const MAIN_WINDOW = 'main';
export const WindowId = z.string().regex(/^(main|w[1-9][0-9]{0,2})$/, 'must be main or w1…w999');
export type WindowId = z.infer<typeof WindowId>;

export { BRIDGE_NO_SUCH_WINDOW, BRIDGE_REPLACED } from './bridge-close';

/** What a panel is (`chart`, `watchlist`…): the renderer's panel registry knows each kind; main only keeps it. */
export const PanelKind = z.string().regex(/^[a-z][a-z0-9-]{0,23}$/, 'must be a panel kind such as chart or watchlist');
export type PanelKind = z.infer<typeof PanelKind>;

/** One panel on the desk: a kind's own panel has the kind's name (`chart`), another of the kind `chart-2`. */
export const PanelId = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be a panel id such as chart or chart-2');
export type PanelId = z.infer<typeof PanelId>;

const InstrumentToken = z.number().int().positive();
const Coordinate = z.number().int().min(-100_000).max(100_000);
const Extent = z.number().int().min(1).max(100_000);

/** A rectangle on the screen, in the desktop's coordinates (Electron's DIP), as a window's bounds or a display's work area. */
export const ScreenRect = z.strictObject({ x: Coordinate, y: Coordinate, width: Extent, height: Extent });
export type ScreenRect = z.infer<typeof ScreenRect>;

/** A display's id as the shell names it (Electron's `Display.id`, as text). */
export const DisplayId = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be a display id');

/** A panel's own settings, kind by kind (a chart's `interval`): a few short values. */
export const PanelOptions = z
  .record(
    z.string().regex(/^[A-Za-z]{1,24}$/, 'must be an option name'),
    z.union([z.string().max(64), z.number().finite(), z.boolean()]),
  )
  .refine((o) => Object.keys(o).length <= 16, 'at most 16 options');
export type PanelOptions = z.infer<typeof PanelOptions>;

/**
 * A panel the desk keeps state for: where it is, its link, its own instrument (read when it is
 * not linked) and options. A kind's own panel in its place in the main window, linked as a new
 * desk starts it, needs no entry (docs/workstation.md §The desk).
 */
export const DeskPanel = z.strictObject({
  id: PanelId,
  kind: PanelKind,
  window: WindowId,
  link: LinkGroup.nullable(),
  instrument: InstrumentToken.nullable(),
  options: PanelOptions,
});
export type DeskPanel = z.infer<typeof DeskPanel>;

/** One window of the desk: where it was last seen. A pop-out shows its panels side by side or stacked. */
export const DeskWindow = z.strictObject({
  id: WindowId,
  bounds: ScreenRect.nullable(),
  display: DisplayId.nullable(),
  orientation: z.enum(['horizontal', 'vertical']),
});
export type DeskWindow = z.infer<typeof DeskWindow>;

/** The desk: its windows (the main window first), the panels with state, and each group's instrument. */
export const Desk = z.strictObject({
  windows: z
    .array(DeskWindow)
    .min(1)
    .max(16)
    .refine((w) => w[0]?.id === MAIN_WINDOW, 'the main window comes first')
    .refine((w) => new Set(w.map((x) => x.id)).size === w.length, 'window ids are unique'),
  panels: z
    .array(DeskPanel)
    .max(64)
    .refine((p) => new Set(p.map((x) => x.id)).size === p.length, 'panel ids are unique'),
  links: z.partialRecord(LinkGroup, InstrumentToken),
});
export type Desk = z.infer<typeof Desk>;

/** A workspace's name, as the trader typed it. */
export const WorkspaceName = z.string().trim().min(1, 'must not be empty').max(40, 'at most 40 characters');

/** Keys no record of a file may carry: a later `obj[key] = …` on them would reach a prototype. */
const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A record read from a file, without the keys that name a prototype (docs/workstation.md §Workspaces). */
function withoutUnsafeKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => !UNSAFE_KEYS.has(k)));
}

/** Panel sizes per resizable group (percent per panel id) and the tab each tabbed slot shows: the renderer's, kept with a workspace. */
export const WorkspaceLayouts = z
  .record(z.string().max(64), z.record(z.string().max(64), z.number().min(0).max(100)).transform(withoutUnsafeKeys))
  .refine((l) => Object.keys(l).length <= 64, 'at most 64 groups')
  .transform(withoutUnsafeKeys);
export const WorkspaceTabs = z
  .record(z.string().max(64), z.string().max(64))
  .refine((t) => Object.keys(t).length <= 64, 'at most 64 slots')
  .transform(withoutUnsafeKeys);

/** A named workspace: the desk as saved, with the sizes and tabs the pages had then. */
export const Workspace = z.strictObject({
  name: WorkspaceName,
  desk: Desk,
  layouts: WorkspaceLayouts,
  tabs: WorkspaceTabs,
});
export type Workspace = z.infer<typeof Workspace>;

/** At most this many named workspaces per profile. */
export const MAX_WORKSPACES = 20;

/** An exported workspace file (docs/workstation.md §Workspaces). */
export const WorkspaceFile = z.strictObject({
  format: z.literal('tradedesk-workspaces'),
  version: z.literal(1),
  workspaces: z.array(Workspace).min(1).max(MAX_WORKSPACES),
});
export type WorkspaceFile = z.infer<typeof WorkspaceFile>;

/**
 * What every page draws from: the live desk, which of its windows have a page open, and the
 * profile's workspaces. `loaded` is the last workspace loaded (its sizes and tabs, with a number
 * that grows at each load) so every window applies it once.
 */
export const DeskView = z.strictObject({
  desk: Desk,
  open: z.array(WindowId),
  /** `main`: main opens and closes the windows (Electron); `page`: the main page opens them (the browser host). */
  opener: z.enum(['main', 'page']),
  workspaces: z.array(WorkspaceName).max(MAX_WORKSPACES),
  loaded: z
    .strictObject({
      name: WorkspaceName,
      generation: z.number().int().nonnegative(),
      layouts: WorkspaceLayouts,
      tabs: WorkspaceTabs,
    })
    .nullable(),
});
export type DeskView = z.infer<typeof DeskView>;

/**
 * A ticket asked for from another window than the ticket's (a watchlist's B, a chart's click): the
 * ticket's window fills it in. It only prefills the form; nothing is sent without the trader.
 */
export const TicketRequest = z.strictObject({
  side: TransactionType,
  instrumentToken: InstrumentToken,
  /** What the click prices: a LIMIT or SL at a level, or an exit's quantity and product. */
  patch: z
    .strictObject({
      orderType: OrderType.optional(),
      price: z.string().max(24).optional(),
      triggerPrice: z.string().max(24).optional(),
      quantity: z.string().max(24).optional(),
      product: Product.optional(),
    })
    .optional(),
  /** An exit: the form starts afresh with the patch (`exitRequested`), not from the draft. */
  exit: z.boolean().optional(),
  /** The live last price the click saw, so a LIMIT starts at the market. */
  lastPrice: z.number().nonnegative().optional(),
});
export type TicketRequest = z.infer<typeof TicketRequest>;

/** What one window asks another to do: show a panel (and take the focus), or fill in the ticket. */
export const DeskCommand = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('focus'), window: WindowId, panel: PanelId.nullable() }),
  z.strictObject({ type: z.literal('ticket'), window: WindowId, ticket: TicketRequest }),
]);
export type DeskCommand = z.infer<typeof DeskCommand>;
