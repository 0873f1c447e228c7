import { describe, expect, it } from 'vitest';
import { cascadeFrom, isGrabbable, placeOnDisplays, type DisplayArea } from './display-bounds';

/** A laptop's own screen (primary, a taskbar of 40 px at the bottom) and an external one to its right. */
const laptop: DisplayArea = {
  id: '1',
  primary: true,
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  workArea: { x: 0, y: 0, width: 1920, height: 1040 },
};
const external: DisplayArea = {
  id: '2',
  primary: false,
  bounds: { x: 1920, y: 0, width: 2560, height: 1440 },
  workArea: { x: 1920, y: 0, width: 2560, height: 1440 },
};
/** A screen above the laptop (docked monitors are not always beside it). */
const above: DisplayArea = {
  id: '3',
  primary: false,
  bounds: { x: 0, y: -1200, width: 1920, height: 1200 },
  workArea: { x: 0, y: -1200, width: 1920, height: 1200 },
};

describe('placeOnDisplays: a window restored onto the screens there are now', () => {
  it('leaves a window on a display that is still there where it was', () => {
    const chart = { x: 2200, y: 100, width: 800, height: 600 };
    expect(placeOnDisplays(chart, '2', [laptop, external])).toEqual({ bounds: chart, display: '2' });
  });

  it('brings a window saved on a removed display onto the screen beside it, whole and at its size', () => {
    // The laptop came off its dock: the external screen the chart was saved on is gone.
    const placed = placeOnDisplays({ x: 2200, y: 100, width: 800, height: 600 }, '2', [laptop]);
    expect(placed).toEqual({ bounds: { x: 1120, y: 100, width: 800, height: 600 }, display: '1' });
  });

  it('shrinks a window larger than the screen it is brought onto to that screen’s work area', () => {
    const placed = placeOnDisplays({ x: 1920, y: 0, width: 2560, height: 1440 }, '2', [laptop]);
    expect(placed).toEqual({ bounds: { x: 0, y: 0, width: 1920, height: 1040 }, display: '1' });
  });

  it('brings a window on a removed screen above the laptop down onto it', () => {
    const high = { x: 300, y: -900, width: 700, height: 500 };
    expect(placeOnDisplays(high, '3', [laptop, external, above])).toEqual({ bounds: high, display: '3' });
    const placed = placeOnDisplays(high, '3', [laptop, external]);
    expect(placed.display).toBe('1');
    expect(placed.bounds).toEqual({ x: 300, y: 0, width: 700, height: 500 });
    expect(isGrabbable(placed.bounds, [laptop, external])).toBe(true);
  });

  it('moves a window whose title bar is off every screen even when its display is still there', () => {
    // Only 60 px of the window's left edge show on the laptop: too little to grab.
    const placed = placeOnDisplays({ x: -740, y: 200, width: 800, height: 600 }, '1', [laptop]);
    expect(placed).toEqual({ bounds: { x: 0, y: 200, width: 800, height: 600 }, display: '1' });
  });

  it('keeps a window half across two screens, as the trader put it', () => {
    const across = { x: 1600, y: 200, width: 800, height: 600 };
    expect(placeOnDisplays(across, '1', [laptop, external]).bounds).toEqual(across);
  });

  it('keeps a window whose taskbar-hidden bottom is off the work area but whose title bar shows', () => {
    const low = { x: 100, y: 900, width: 800, height: 600 };
    expect(placeOnDisplays(low, '1', [laptop]).bounds).toEqual(low);
  });

  it('with no display known (a headless shell) keeps the saved bounds', () => {
    const b = { x: 5000, y: 5000, width: 800, height: 600 };
    expect(placeOnDisplays(b, '2', [])).toEqual({ bounds: b, display: '2' });
  });
});

describe('cascadeFrom: a new pop-out beside the window it came from', () => {
  it('opens a step down and right of the window, on its display', () => {
    expect(
      cascadeFrom({ x: 2000, y: 50, width: 1440, height: 900 }, { width: 720, height: 520 }, 40, [laptop, external]),
    ).toEqual({
      x: 2040,
      y: 90,
      width: 720,
      height: 520,
    });
  });

  it('stays inside the display when the step would leave it', () => {
    const b = cascadeFrom({ x: 1400, y: 700, width: 500, height: 300 }, { width: 720, height: 520 }, 40, [laptop]);
    expect(b).toEqual({ x: 1200, y: 520, width: 720, height: 520 });
  });
});
