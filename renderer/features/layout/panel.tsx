import { useId, type ReactNode } from 'react';
import { Freshness, useFreshness, type FreshnessSource, type PanelFreshness } from './freshness';
import { NoTabStrip, TabList, useTabStrip } from './panel-tabs';
import { useDeskPanel } from '../workstation/desk-panel';
import { DeskPanelControls } from '../workstation/panel-controls';

interface PanelProps {
  readonly title: string;
  readonly source?: FreshnessSource;
  readonly actions?: ReactNode;
  readonly className?: string;
  readonly children: ReactNode;
}

/**
 * A workspace panel: a titled region with the age of its data in the header.
 *
 * The section is a named region (`aria-labelledby` its heading), so tests and screen readers
 * find "Positions" or "Funds" the way a trader names them. The stale border and the stale
 * label come from one decision (`useFreshness`), so they can never disagree. Shown in a tabbed
 * slot (`panel-tabs.tsx`), the header carries the slot's tabs in place of the title. Drawn as a
 * desk panel, the header also carries its colour chip and "Pop out" (docs/workstation.md).
 */
export function Panel(props: PanelProps) {
  return props.source ? <PolledPanel {...props} source={props.source} /> : <PanelFrame {...props} view={null} />;
}

function PolledPanel(props: PanelProps & { readonly source: FreshnessSource }) {
  return <PanelFrame {...props} view={useFreshness(props.source)} />;
}

function PanelFrame(props: PanelProps & { readonly view: PanelFreshness | null }) {
  const id = useId();
  const strip = useTabStrip();
  const stale = props.view?.stale === true;
  const label = strip ? strip.tabId(strip.shown) : id;
  const desk = useDeskPanel();
  // Another panel of a kind is numbered as the desk names it ("Chart 2").
  const title = desk && desk.id !== desk.kind ? `${props.title} ${desk.id.slice(desk.kind.length + 1)}` : props.title;
  return (
    <section
      data-desk-panel={desk?.id}
      data-group={desk?.link ?? undefined}
      tabIndex={desk ? -1 : undefined}
      className={`panel${stale ? ' panel--stale' : ''}${props.className ? ` ${props.className}` : ''}`}
      aria-labelledby={label}
    >
      <header className="panel__head">
        {strip ? <TabList strip={strip} /> : <h2 id={id}>{title}</h2>}
        {props.view ? <Freshness view={props.view} /> : null}
        <div className="panel__actions">
          {props.actions}
          <DeskPanelControls />
        </div>
      </header>
      <div className="panel__body" {...(strip ? { role: 'tabpanel', 'aria-labelledby': label } : {})}>
        <NoTabStrip>{props.children}</NoTabStrip>
      </div>
    </section>
  );
}
