import { Group, Panel as ResizablePanel, Separator } from 'react-resizable-panels';
import type { ReactNode } from 'react';
import { useSavedLayout, useSettingsActions } from '../../state/settings-store';

/**
 * A panel's smallest size: a number is a percentage of its group; a string with `px` is pixels,
 * for content that needs a fixed room whatever the screen (a ticket's Place order button, a
 * watchlist symbol, the funds figures). The library keeps pixel minimums as the window resizes.
 */
export type MinSize = number | `${number}px`;

/** Panels side by side (`horizontal`) or stacked (`vertical`), resizable by the trader. */
export interface WorkspaceGroup {
  /** Keys the saved sizes: renaming a group resets only that group. */
  readonly id: string;
  readonly orientation: 'horizontal' | 'vertical';
  readonly panels: readonly WorkspacePanel[];
}

/** One panel of a group: its share of the group, its floor, and what it holds. */
export type WorkspacePanel = {
  readonly id: string;
  /** Percent of the group on first start (the trader's own sizes are saved and restored). */
  readonly defaultPercent: number;
  readonly min: MinSize;
} & ({ readonly panel: ReactNode } | { readonly split: WorkspaceGroup });

/**
 * The workspace as a tree of resizable groups whose sizes persist (zustand → localStorage)
 * across restarts; the tree itself is declared once, in app.tsx.
 */
export function Workspace({ layout }: { readonly layout: WorkspaceGroup }) {
  const saved = useSavedLayout(layout.id);
  const { layoutChanged } = useSettingsActions();
  return (
    <Group
      id={layout.id}
      orientation={layout.orientation}
      defaultLayout={saved}
      onLayoutChanged={(sizes) => layoutChanged(layout.id, sizes)}
      className="rgroup"
    >
      {layout.panels.map((p, n) => (
        <PanelWithSeparator key={p.id} first={n === 0} id={p.id} size={p.defaultPercent} min={p.min}>
          {'split' in p ? <Workspace layout={p.split} /> : p.panel}
        </PanelWithSeparator>
      ))}
    </Group>
  );
}

function PanelWithSeparator(props: { first: boolean; id: string; size: number; min: MinSize; children: ReactNode }) {
  return (
    <>
      {props.first ? null : <Separator className="rsep" />}
      <ResizablePanel
        id={props.id}
        defaultSize={`${props.size}%`}
        minSize={typeof props.min === 'number' ? `${props.min}%` : props.min}
        className="rpanel"
      >
        {props.children}
      </ResizablePanel>
    </>
  );
}
