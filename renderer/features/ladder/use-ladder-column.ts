import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { toUnits } from '@shared/trading/money';
import { halfRowsFor, HALF_ROWS, ladderPrices, outsideMiddleThird, ROW_PX, visibleRows } from './ladder-model';

/** The ladder's column of prices, and how it follows the market (docs/ladder.md §What it shows). */
export interface LadderColumn {
  readonly scroller: RefObject<HTMLDivElement | null>;
  /** The prices shown, highest first, one tick apart (price units); empty until there is a price. */
  readonly prices: readonly number[];
  /** Scrolled away from the centre by the trader: the column stops following the price. */
  readonly detached: boolean;
  /** Centres on the last price and follows it again (C, Back to price). */
  readonly recentre: () => void;
  /** Centres on a price (the keyboard's selection past the column's ends). */
  readonly centreOn: (price: number) => void;
  readonly onScroll: () => void;
}

/**
 * The column: as many rows as the view has room for (measured), centred on the last price when
 * first shown, again when asked, and by itself when the price leaves the middle third of the view
 * while the trader has not scrolled away.
 */
export function useLadderColumn(token: number | null, last: number | null, tick: number): LadderColumn {
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ px: 0, rowPx: ROW_PX });
  const visible = view.px > 0 ? visibleRows(view.px, view.rowPx) : HALF_ROWS;
  const [detached, setDetached] = useState(false);
  const centredTop = useRef<number | null>(null);

  const [centre, setCentre] = useState<{ token: number | null; price: number | null }>({ token: null, price: null });
  const centrePrice = centre.token === token ? centre.price : null;
  // Set during render (React's "state from the previous render" pattern), not in an effect: the
  // first frame with a price already draws the column.
  if (centrePrice === null && last !== null && last > 0) setCentre({ token, price: last });
  else if (
    !detached &&
    centrePrice !== null &&
    last !== null &&
    last > 0 &&
    outsideMiddleThird(toUnits(centrePrice), toUnits(last), toUnits(tick), visible)
  )
    setCentre({ token, price: last });
  const recentre = (): void => {
    setDetached(false);
    if (last !== null) setCentre({ token, price: last });
  };
  const half = halfRowsFor(visible);
  const prices = useMemo(
    () => (centrePrice === null ? [] : ladderPrices(centrePrice, tick, half)),
    [centrePrice, tick, half],
  );
  // The centre row in the middle of the view whenever the column is (re)centred — also when the
  // centre is the same price as before (`centre` is a new object each time it is asked for).
  useLayoutEffect(() => {
    const el = scroller.current;
    const row = el?.querySelectorAll<HTMLElement>('tbody tr[data-price]')[Math.floor(prices.length / 2)];
    if (!el || !row) return;
    el.scrollTop = row.offsetTop - (el.clientHeight - row.offsetHeight) / 2;
    centredTop.current = el.scrollTop;
  }, [prices, centre]);
  const hasColumn = prices.length > 0;
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = (): void => {
      const row = el.querySelector<HTMLElement>('tbody tr[data-price]');
      const head = el.querySelector<HTMLElement>('thead')?.offsetHeight ?? 0;
      setView({ px: el.clientHeight - head, rowPx: row?.offsetHeight || ROW_PX });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasColumn]);
  const onScroll = (): void => {
    const el = scroller.current;
    if (!el || centredTop.current === null) return;
    const away = Math.abs(el.scrollTop - centredTop.current) > view.rowPx * 1.5;
    if (away !== detached) setDetached(away);
  };
  return { scroller, prices, detached, recentre, centreOn: (price) => setCentre({ token, price }), onScroll };
}
