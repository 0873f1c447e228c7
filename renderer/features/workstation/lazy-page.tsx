import { lazy, Suspense, type ComponentType } from 'react';

/** A whole page whose code is already on its way (`import()` called by the caller), shown once it is here. */
export function lazyPage(loading: Promise<ComponentType>): ComponentType {
  const Loaded = lazy(() => loading.then((component) => ({ default: component })));
  function LazyPage() {
    return (
      <Suspense fallback={<p className="empty">Loading…</p>}>
        <Loaded />
      </Suspense>
    );
  }
  return LazyPage;
}
