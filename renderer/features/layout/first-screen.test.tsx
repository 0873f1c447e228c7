import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FirstScreenFirst, Later } from './first-screen';
import { Panel } from './panel';

function Desk(props: { readonly onDrawn?: () => void }) {
  return (
    <FirstScreenFirst {...(props.onDrawn ? { onDrawn: props.onDrawn } : {})}>
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

describe('the first screen first', () => {
  it('draws the book at once and the ticket’s frame saying "Loading ticket…", then the ticket once that painted', async () => {
    const drawn = vi.fn();
    render(<Desk onDrawn={drawn} />);
    expect(screen.getByText('250101000001 OPEN')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Ticket' }).textContent).toContain('Loading ticket…');
    expect(screen.queryByRole('button', { name: 'Place order' })).toBeNull();
    expect(drawn).not.toHaveBeenCalled();
    expect(await screen.findByRole('button', { name: 'Place order' })).toBeTruthy();
    expect(screen.queryByText('Loading ticket…')).toBeNull();
    // Told once (the main window tells main: its login work that waited for it goes ahead).
    expect(drawn).toHaveBeenCalledTimes(1);
  });

  it('draws everything at once outside it (a pop-out, a panel on its own)', () => {
    render(
      <Later title="Ticket" what="ticket">
        <button type="button">Place order</button>
      </Later>,
    );
    expect(screen.getByRole('button', { name: 'Place order' })).toBeTruthy();
  });
});
