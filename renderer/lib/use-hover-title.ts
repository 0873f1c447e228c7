import { useState } from 'react';

/**
 * A `title` made only while the pointer is over its element. A title that changes with every
 * tick or every second (a price's age, a change in rupees) costs its element a style
 * recalculation each time — the browser's own `[title]` rules make the attribute one that styles
 * depend on — and in a ticking list that is every row, several times a second (docs/live-data.md
 * §A ticking list's cost). Read only on hover, it costs nothing until then.
 */
export function useHoverTitle(make: () => string | undefined): {
  readonly title: string | undefined;
  readonly onPointerEnter: () => void;
  readonly onPointerLeave: () => void;
} {
  const [hovered, setHovered] = useState(false);
  return {
    title: hovered ? make() : undefined,
    onPointerEnter: () => setHovered(true),
    onPointerLeave: () => setHovered(false),
  };
}
