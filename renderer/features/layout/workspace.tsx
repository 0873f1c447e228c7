import { Group, Panel as ResizablePanel, Separator } from 'react-resizable-panels';
import type { ReactNode } from 'react';
import { useSavedLayout, useSettingsActions } from '../../state/settings-store';

/**
 * A panel's smallest size: a number is a percentage of its group; a string with `px` is pixels,
 * for content that needs a fixed room whatever the screen (a ticket's Place order button, a
 * watchlist symbol, the funds figures). The library keeps pixel minimums as the window resizes.
 */
export type MinSize = number | `${number}px`;

/**
 * One resizable group whose sizes persist (zustand → localStorage) across restarts.
 *
 * `panels` are [id, default %, min, content]; the ids key the saved layout, so renaming one
 * resets only that group.
 */
export function ResizableGroup(props: {
  readonly id: string;
  readonly orientation: 'horizontal' | 'vertical';
  readonly panels: ReadonlyArray<readonly [id: string, defaultPercent: number, min: MinSize, content: ReactNode]>;
}) {
  const saved = useSavedLayout(props.id);
  const { layoutChanged } = useSettingsActions();
  return (
    <Group
      id={props.id}
      orientation={props.orientation}
      defaultLayout={saved}
      onLayoutChanged={(layout) => layoutChanged(props.id, layout)}
      className="rgroup"
    >
      {props.panels.map(([id, size, min, content], n) => (
        <PanelWithSeparator key={id} first={n === 0} id={id} size={size} min={min}>
          {content}
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
