import { useId, type ReactNode } from 'react';
import { Freshness, useFreshness, type FreshnessSource, type PanelFreshness } from './freshness';

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
 * label come from one decision (`useFreshness`), so they can never disagree.
 */
export function Panel(props: PanelProps) {
  return props.source ? <PolledPanel {...props} source={props.source} /> : <PanelFrame {...props} view={null} />;
}

function PolledPanel(props: PanelProps & { readonly source: FreshnessSource }) {
  return <PanelFrame {...props} view={useFreshness(props.source)} />;
}

function PanelFrame(props: PanelProps & { readonly view: PanelFreshness | null }) {
  const id = useId();
  const stale = props.view?.stale === true;
  return (
    <section
      className={`panel${stale ? ' panel--stale' : ''}${props.className ? ` ${props.className}` : ''}`}
      aria-labelledby={id}
    >
      <header className="panel__head">
        <h2 id={id}>{props.title}</h2>
        {props.view ? <Freshness view={props.view} /> : null}
        <div className="panel__actions">{props.actions}</div>
      </header>
      <div className="panel__body">{props.children}</div>
    </section>
  );
}
