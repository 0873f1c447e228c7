import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PaintRateNote } from './paint-rate-note';

afterEach(() => {
  act(() => {
    window.dispatchEvent(new Event('focus'));
  });
});

describe('the header while the window is not focused', () => {
  it('says prices come once a second while the window has lost the focus, and nothing once it is back', () => {
    render(<PaintRateNote />);
    // A window is taken as focused until it hears otherwise: no note.
    expect(screen.queryByTestId('paint-rate-note')).toBeNull();

    act(() => {
      window.dispatchEvent(new Event('blur'));
    });
    const note = screen.getByTestId('paint-rate-note');
    expect(note.textContent).toBe('Not focused: prices every 1 s');
    expect(note.title).toContain('Orders, fills and rejections still show at once');

    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(screen.queryByTestId('paint-rate-note')).toBeNull();
  });
});
