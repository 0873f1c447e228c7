import { UNFOCUSED_EVERY_MS } from './quotes-store';
import { useWindowFocused } from './window-focus';

/**
 * Says so in the header while this window draws prices at the slower pace of a window without
 * the focus (docs/live-data.md §Windows not focused); nothing while it has the focus.
 */
export function PaintRateNote() {
  const focused = useWindowFocused();
  if (focused) return null;
  const perSecond = Math.round(1000 / UNFOCUSED_EVERY_MS);
  return (
    <span
      className="muted small"
      data-testid="paint-rate-note"
      title="Several windows share this computer's cores: a window without the focus draws prices more slowly. Click it to see every tick."
    >
      Prices {perSecond}× a second (not focused)
    </span>
  );
}
