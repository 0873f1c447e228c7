import { describe, expect, it } from 'vitest';
import type { DeskWindow } from '@shared/domain/workstation';
import type { DisplayArea } from '@shared/workstation/display-bounds';
import { closeDeskQuestion, openingBounds, reconcileWindows, windowUrl } from './window-rules';

const win = (id: string, over: Partial<DeskWindow> = {}): DeskWindow => ({
  id,
  bounds: null,
  display: null,
  orientation: 'horizontal',
  ...over,
});

const laptop: DisplayArea = {
  id: '1',
  primary: true,
  bounds: { x: 0, y: 0, width: 1440, height: 900 },
  workArea: { x: 0, y: 25, width: 1440, height: 875 },
};

describe("the shell's window rules", () => {
  it('loads the app’s own page for every window, naming the pop-out', () => {
    expect(windowUrl('app://tradedesk/index.html', 'main')).toBe('app://tradedesk/index.html');
    expect(windowUrl('app://tradedesk/index.html', 'w2')).toBe('app://tradedesk/index.html?window=w2');
    expect(windowUrl('http://127.0.0.1:5173/', 'w1')).toBe('http://127.0.0.1:5173/?window=w1');
  });

  it('opens the desk’s pop-outs the shell lacks and closes the ones the desk no longer has, never the main window', () => {
    expect(reconcileWindows([win('main'), win('w1'), win('w3')], new Set(['main', 'w1', 'w2']))).toEqual({
      open: [win('w3')],
      close: ['w2'],
    });
    expect(reconcileWindows([win('main')], new Set())).toEqual({ open: [], close: [] });
    // A desk that does not list the main window (an old or damaged save) still never closes it.
    expect(reconcileWindows([win('w1')], new Set(['main', 'w1', 'w2']))).toEqual({ open: [], close: ['w2'] });
  });

  it('restores a pop-out saved on a display that is gone onto the laptop’s screen', () => {
    const saved = win('w1', { bounds: { x: 1700, y: 60, width: 900, height: 700 }, display: '2' });
    expect(openingBounds(saved, { x: 0, y: 25, width: 1440, height: 875 }, [laptop])).toEqual({
      bounds: { x: 540, y: 60, width: 900, height: 700 },
      display: '1',
    });
  });

  it('opens a new pop-out a step from the main window', () => {
    expect(openingBounds(win('w1'), { x: 100, y: 100, width: 1200, height: 700 }, [laptop])).toEqual({
      bounds: { x: 140, y: 140, width: 760, height: 540 },
      display: null,
    });
  });

  it('asks before the main window closes the desk only while pop-outs are open', () => {
    expect(closeDeskQuestion(0)).toBeNull();
    expect(closeDeskQuestion(1)).toMatchObject({
      message: 'Close the desk?',
      detail: expect.stringMatching(/^The other window closes with it/),
      buttons: ['Close the desk', 'Cancel'],
    });
    expect(closeDeskQuestion(3)?.detail).toMatch(/^The 3 other windows close with it/);
  });
});
