import type { ReactNode } from 'react';
import type { DeskPanel } from '@shared/domain/workstation';
import { call } from '../../lib/ipc-client';
import { PanelTabs } from '../layout/panel-tabs';
import { moveTo } from './desk-actions';
import { DeskPanelProvider } from './desk-panel';
import { useDeskView } from './desk-queries';
import { panelOn, panelTitle } from './panel-kinds';
import { PanelView } from './panel-views';
import { raisePopout } from './popout-windows';
import { THIS_WINDOW, windowName } from './this-window';

/** One kind a slot of the main window's workspace holds: its id, its tab label, what it draws. */
export type SlotKind = readonly [kind: string, label: string, panel: ReactNode];

/**
 * A slot of the main window's workspace as the desk has it (docs/workstation.md §The desk): the
 * kinds whose own panel is in this window, then the other panels of those kinds that are (a
 * second chart), as tabs when there are several; a slot whose panels are all in other windows
 * says where they are and offers to bring them back.
 */
export function DeskSlot({ id, kinds }: { readonly id?: string; readonly kinds: readonly SlotKind[] }) {
  const view = useDeskView();
  const here: Array<readonly [string, string, ReactNode]> = [];
  const away: DeskPanel[] = [];
  for (const [kind, label, element] of kinds) {
    const own = panelOn(view, kind, kind);
    if (own.window === THIS_WINDOW)
      here.push([
        kind,
        label,
        <DeskPanelProvider key={kind} panel={own}>
          {element}
        </DeskPanelProvider>,
      ]);
    else away.push(own);
    for (const p of view?.desk.panels ?? []) {
      if (p.kind !== kind || p.id === kind || p.window !== THIS_WINDOW) continue;
      here.push([
        p.id,
        panelTitle(p),
        <DeskPanelProvider key={p.id} panel={p}>
          <PanelView kind={kind} />
        </DeskPanelProvider>,
      ]);
    }
  }
  if (here.length === 0) return <AwayPanel panels={away} />;
  if (here.length === 1 && !id) return <>{here[0]![2]}</>;
  return <PanelTabs id={id ?? `slot-${kinds[0]![0]}`} tabs={here} />;
}

/** Where a slot's panels went: each with "Show" (raises its window) and "Bring back". */
function AwayPanel({ panels }: { readonly panels: readonly DeskPanel[] }) {
  const title = panels.map(panelTitle).join(', ');
  return (
    <section className="panel" aria-label={`${title} (in another window)`}>
      <div className="panel__body desk-away">
        {panels.map((p) => (
          <div key={p.id} className="desk-away__row">
            <span>
              {panelTitle(p)} is in {windowName(p.window)}.
            </span>{' '}
            <button
              type="button"
              onClick={() => {
                raisePopout(p.window);
                call('desk.command', { type: 'focus', window: p.window, panel: p.id }).catch(() => undefined);
              }}
            >
              Show
            </button>{' '}
            <button type="button" onClick={() => void moveTo(p, THIS_WINDOW).catch(() => undefined)}>
              Bring back {panelTitle(p)}
            </button>
          </div>
        ))}
      </div>
    </section>
  );
}
