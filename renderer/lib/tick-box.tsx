import type { CSSProperties, ReactNode } from 'react';

/**
 * Text that changes with the market (a price, a quantity, an age) in an inline box of its own
 * size that contains its size and layout (`.tick-box`, global.css): a new value is laid out
 * inside the box, not from the document, and only a value of another width changes the box
 * (docs/live-data.md §A ticking list's cost).
 *
 * The box must not be a flex or grid item itself (the browser lays those out only with their
 * container): put it inside one.
 */
export function TickBox(props: {
  /** The text the box is sized for: its value, or what `children` draw of it. */
  readonly text: string;
  readonly className?: string;
  /** What the box holds, when more than the bare text (a live price's element). */
  readonly children?: ReactNode;
}) {
  return (
    <span
      className={`tick-box${props.className ? ` ${props.className}` : ''}`}
      style={{ '--chars': tickBoxChars(props.text) } as CSSProperties}
    >
      {props.children ?? props.text}
    </span>
  );
}

/**
 * The box's width in `ch` (the width of a digit: figures are tabular): a digit, a letter or a
 * sign one, a comma, a point, a colon or a space 0.55 — about half a digit in the usual faces,
 * with room to spare. Letters are wider or narrower than a digit; an age's or a spread's words
 * are short, and the box is never narrower than the widest digits.
 */
export function tickBoxChars(text: string): number {
  let n = 0;
  for (const c of text) n += c === ',' || c === '.' || c === ':' || c === ' ' ? 0.55 : 1;
  return Math.round(n * 100) / 100;
}
