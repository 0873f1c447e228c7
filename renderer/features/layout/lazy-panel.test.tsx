import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { lazyPanel } from './lazy-panel';
import { Panel } from './panel';
import { PanelTabs } from './panel-tabs';

/** A chunk that arrives when the test says so, as a slow disk or network would deliver it. */
function deferred<T>() {
  let settle!: { resolve: (v: T) => void; reject: (e: unknown) => void };
  const promise = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  return { promise, ...settle };
}

function Chart() {
  return (
    <Panel title="Chart">
      <p>candles</p>
    </Panel>
  );
}

function Slot({ chart }: { readonly chart: ReturnType<typeof lazyPanel> }) {
  const Lazy = chart;
  return (
    <PanelTabs
      id="lazy-slot"
      tabs={[
        ['chart', 'Chart', <Lazy key="c" />],
        [
          'other',
          'Other',
          <Panel key="o" title="Other">
            other content
          </Panel>,
        ],
      ]}
    />
  );
}

describe('lazyPanel', () => {
  it('shows the slot with its tabs and "Loading chart…" until the code arrives, then the panel', async () => {
    localStorage.clear();
    const chunk = deferred<typeof Chart>();
    render(<Slot chart={lazyPanel('Chart', 'chart', () => chunk.promise)} />);
    const region = screen.getByRole('region', { name: 'Chart' });
    expect(region.textContent).toContain('Loading chart…');
    // The other tab is usable while the chart's code is still on its way.
    expect(screen.getByRole('tab', { name: 'Other' })).toBeTruthy();

    chunk.resolve(Chart);
    expect(await screen.findByText('candles')).toBeTruthy();
    expect(screen.queryByText('Loading chart…')).toBeNull();
  });

  it('says in the panel why its code could not load, and the rest of the slot keeps working', async () => {
    localStorage.clear();
    render(
      <Slot
        chart={lazyPanel('Chart', 'chart', () =>
          Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
        )}
      />,
    );
    expect(await screen.findByText(/Could not load chart: .*Failed to fetch dynamically imported module/)).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Other' }));
    expect(screen.getByRole('region', { name: 'Other' }).textContent).toContain('other content');
  });
});
