import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './dialog';

/** A page with a button that opens `body` in a dialog, as the desk's dialogs open. */
function Opener({ body }: { readonly body: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open ? (
        <Dialog title="Test dialog" onClose={() => setOpen(false)}>
          {body}
        </Dialog>
      ) : null}
    </>
  );
}

async function opened(body: React.ReactNode): Promise<HTMLElement> {
  const user = userEvent.setup();
  render(<Opener body={body} />);
  await user.click(screen.getByRole('button', { name: 'Open' }));
  return screen.getByRole('dialog', { name: 'Test dialog' });
}

describe('Dialog', () => {
  it('focuses its first field, not the × before it, and hands the focus back on Esc', async () => {
    await opened(
      <form>
        <button type="button">Help</button>
        <input aria-label="Quantity" disabled />
        <input aria-label="Price" />
        <select aria-label="Product">
          <option>MIS</option>
        </select>
      </form>,
    );
    expect(document.activeElement).toBe(screen.getByLabelText('Price'));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open' }));
  });

  it('without a field, focuses the first button of its body (a confirmation), never the ×', async () => {
    await opened(
      <p>
        Cancel every order? <button type="button">Back</button> <button type="button">Cancel all</button>
      </p>,
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Back' }));
  });

  it('focuses the element the dialog marks data-autofocus, before any field', async () => {
    await opened(
      <>
        <input aria-label="Note" />
        <button type="button" data-autofocus>
          Done
        </button>
      </>,
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Done' }));
  });

  it('with nothing to operate but the ×, focuses the dialog itself, so a screen reader reads its title', async () => {
    const dialog = await opened(<p>Order 42: COMPLETE</p>);
    expect(document.activeElement).toBe(dialog);
  });

  it('still closes on Esc after the focused element inside it went away (a Stop button gone when its run ended)', async () => {
    function Vanishing() {
      const [shown, setShown] = useState(true);
      return shown ? (
        <button type="button" data-autofocus onClick={() => setShown(false)}>
          Stop
        </button>
      ) : (
        <p>Stopped</p>
      );
    }
    const user = userEvent.setup();
    render(<Opener body={<Vanishing />} />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(document.activeElement).toBe(document.body);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
