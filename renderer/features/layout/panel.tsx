import { useId, type ReactNode } from 'react';
import { Freshness, type FreshnessSource } from './freshness';

/**
 * A workspace panel: a titled region with the age of its data in the header.
 *
 * The section is a named region (`aria-labelledby` its heading), so tests and screen readers
 * find "Positions" or "Funds" the way a trader names them. `stale` styling comes from the
 * freshness source's error, never from a separate flag that could disagree with it.
 */
export function Panel(props: {
  readonly title: string;
  readonly source?: FreshnessSource;
  readonly actions?: ReactNode;
  readonly className?: string;
  readonly children: ReactNode;
}) {
  const id = useId();
  const stale = props.source?.error != null;
  return (
    <section
      className={`panel${stale ? ' panel--stale' : ''}${props.className ? ` ${props.className}` : ''}`}
      aria-labelledby={id}
    >
      <header className="panel__head">
        <h2 id={id}>{props.title}</h2>
        {props.source ? <Freshness source={props.source} /> : null}
        <div className="panel__actions">{props.actions}</div>
      </header>
      <div className="panel__body">{props.children}</div>
    </section>
  );
}
