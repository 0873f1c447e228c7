import { useEffect, useState, type RefObject } from 'react';

/** How far outside the visible part of its scroller an element still counts as in view (px). */
const MARGIN_PX = 240;

const watchers = new Map<Element, (inView: boolean) => void>();
let observer: IntersectionObserver | null = null;

function shared(): IntersectionObserver | null {
  if (typeof IntersectionObserver !== 'function') return null;
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const e of entries) watchers.get(e.target)?.(e.isIntersecting);
    },
    { rootMargin: `${MARGIN_PX}px 0px` },
  );
  return observer;
}

/**
 * Whether the element is on screen or nearly so (one shared IntersectionObserver for every row,
 * so 200 rows cost one observer). True until the browser first says otherwise, and always where
 * there is no IntersectionObserver: a row is never held back by mistake.
 */
export function useInView(ref: RefObject<Element | null>): boolean {
  const [inView, setInView] = useState(true);
  useEffect(() => {
    const el = ref.current;
    const io = shared();
    if (!el || !io) return undefined;
    watchers.set(el, setInView);
    io.observe(el);
    return () => {
      io.unobserve(el);
      watchers.delete(el);
    };
  }, [ref]);
  return inView;
}
