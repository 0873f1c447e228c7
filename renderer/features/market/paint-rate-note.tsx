import { unfocusedNote } from './paint-pace';
import './paint-rate-note.css';
import { useWindowFocused } from './window-focus';

/**
 * Says so in the header while this window draws prices at the slower pace of a window without
 * the focus (docs/live-data.md §Windows not focused): a trader must know the prices on it are up
 * to a second old. Nothing while it has the focus.
 */
export function PaintRateNote() {
  const focused = useWindowFocused();
  if (focused) return null;
  return (
    <span
      className="paint-rate-note small"
      data-testid="paint-rate-note"
      title="Several windows share this computer's cores: a window without the focus draws prices once a second. Orders, fills and rejections still show at once. Click in the window to see every tick."
    >
      {unfocusedNote()}
    </span>
  );
}
