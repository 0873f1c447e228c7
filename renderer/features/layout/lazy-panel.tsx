import { lazy, Suspense, type ComponentType } from 'react';
import { Panel } from './panel';
import { PanelPlaceholder } from './panel-states';

/**
 * A panel whose code loads after the first screen (docs/live-data.md §The first screen first):
 * the chart's canvas library and the tabs a trader opens later are not fetched and run before the
 * book paints. Until its chunk arrives the slot shows the panel's frame (with the slot's tabs, so they
 * stay clickable) saying "Loading chart…"; a chunk that cannot load says so in the panel instead
 * of taking the whole desk down with it.
 */
export function lazyPanel(title: string, what: string, load: () => Promise<ComponentType>): ComponentType {
  const Loaded = lazy<ComponentType>(() =>
    load().then(
      (component): { default: ComponentType } => ({ default: component }),
      (error: unknown) => ({ default: () => <Waiting title={title} what={what} error={error} /> }),
    ),
  );
  function LazyPanel() {
    return (
      <Suspense fallback={<Waiting title={title} what={what} error={null} />}>
        <Loaded />
      </Suspense>
    );
  }
  LazyPanel.displayName = `Lazy(${title})`;
  return LazyPanel;
}

function Waiting(props: { readonly title: string; readonly what: string; readonly error: unknown }) {
  return (
    <Panel title={props.title}>
      <PanelPlaceholder what={props.what} error={props.error} />
    </Panel>
  );
}
