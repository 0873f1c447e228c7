import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { FirstScreenFirst, Later } from './first-screen';
import { Panel } from './panel';

function Desk() {
  return (
    <FirstScreenFirst>
      <Panel title="Orders">
        <p>250101000001 OPEN</p>
      </Panel>
      <Later title="Ticket" what="ticket">
        <Panel title="Ticket">
          <button type="button">Place order</button>
        </Panel>
      </Later>
    </FirstScreenFirst>
  );
}

let bridge: FakeBridge;
beforeEach(() => {
  bridge = createFakeBridge();
  setBridgeForTests(bridge);
});
afterEach(() => setBridgeForTests(null));

describe('the first screen first', () => {
  it('draws the book at once and the ticket’s frame saying "Loading ticket…", then the ticket once that painted', async () => {
    render(<Desk />);
    expect(screen.getByText('250101000001 OPEN')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Ticket' }).textContent).toContain('Loading ticket…');
    expect(screen.queryByRole('button', { name: 'Place order' })).toBeNull();
    expect(bridge.callsOf('desk.firstScreen')).toEqual([]);
    expect(await screen.findByRole('button', { name: 'Place order' })).toBeTruthy();
    expect(screen.queryByText('Loading ticket…')).toBeNull();
    // Main is told, once: its login work that waited for the first screen goes ahead.
    expect(bridge.callsOf('desk.firstScreen')).toHaveLength(1);
  });

  it('draws everything at once outside it (a pop-out, a panel on its own)', () => {
    render(
      <Later title="Ticket" what="ticket">
        <button type="button">Place order</button>
      </Later>,
    );
    expect(screen.getByRole('button', { name: 'Place order' })).toBeTruthy();
    expect(bridge.callsOf('desk.firstScreen')).toEqual([]);
  });
});
