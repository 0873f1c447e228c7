import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { Panel } from './panel';
import { PanelTabs } from './panel-tabs';

/** A panel that says when it is mounted and unmounted (a hidden tab must not poll or stream). */
const mounted = new Set<string>();
function Probe({ title }: { readonly title: string }) {
  useEffect(() => {
    mounted.add(title);
    return () => void mounted.delete(title);
  }, [title]);
  return (
    <Panel title={title}>
      <p>{title} content</p>
    </Panel>
  );
}

function Slot() {
  return (
    <PanelTabs
      id="test-slot"
      tabs={[
        ['depth', 'Depth', <Probe key="d" title="Depth" />],
        ['holdings', 'Holdings', <Probe key="h" title="Holdings" />],
      ]}
    />
  );
}

describe('PanelTabs', () => {
  it('shows the first tab, named as its panel, with the others one click away and not mounted', async () => {
    localStorage.clear();
    const view = render(<Slot />);
    expect(screen.getByRole('region', { name: 'Depth' }).textContent).toContain('Depth content');
    expect(screen.getByRole('tab', { name: 'Depth' }).getAttribute('aria-selected')).toBe('true');
    expect([...mounted]).toEqual(['Depth']);

    await userEvent.setup().click(screen.getByRole('tab', { name: 'Holdings' }));
    expect(screen.getByRole('region', { name: 'Holdings' }).textContent).toContain('Holdings content');
    expect(screen.queryByRole('region', { name: 'Depth' })).toBeNull();
    expect([...mounted]).toEqual(['Holdings']);

    // The choice persists: the slot opens on it again.
    view.unmount();
    render(<Slot />);
    expect(screen.getByRole('tab', { name: 'Holdings' }).getAttribute('aria-selected')).toBe('true');
  });

  it('moves to the next tab with → and back with ←, as WAI-ARIA tabs do', async () => {
    render(<Slot />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Depth' }));
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('Holdings');
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('Depth');
  });
});
