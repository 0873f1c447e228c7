import type { Route } from './context';

/** What the router needs of a route: its method and its path pattern. */
export interface Routable {
  readonly method: string;
  readonly path: string;
}

/**
 * Path matching for the handful of routes the broker has: `/orders/:order_id` style patterns,
 * compiled once. Knows the difference between "no such path" (404) and "path exists, method
 * does not" (405 with Allow), which clients debugging a PUT-vs-PATCH mix-up appreciate.
 */

interface Compiled<R> {
  readonly route: R;
  readonly re: RegExp;
  readonly keys: readonly string[];
}

export type Match<R = Route> =
  | { readonly kind: 'found'; readonly route: R; readonly params: Record<string, string> }
  | { readonly kind: 'method'; readonly allow: readonly string[] }
  | { readonly kind: 'none' };

/** How strictly paths match. */
export interface RouterOptions {
  /**
   * True (default): `/orders/` is `/orders`. False: only the path as written; a trailing slash
   * is "no such path" (the /kite dialect's documented routes: docs/kite.md §The wire).
   */
  readonly trailingSlash?: boolean;
}

export class Router<R extends Routable = Route> {
  private readonly compiled: Compiled<R>[];

  constructor(routes: readonly R[], options: RouterOptions = {}) {
    const tail = options.trailingSlash === false ? '' : '/?';
    this.compiled = routes.map((route) => {
      const keys: string[] = [];
      const pattern = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([a-z_]+)/g, (_, k: string) => {
        keys.push(k);
        return '([^/]+)';
      });
      return { route, re: new RegExp(`^${pattern}${tail}$`), keys };
    });
  }

  match(method: string, path: string): Match<R> {
    const allow: string[] = [];
    for (const c of this.compiled) {
      const m = c.re.exec(path);
      if (!m) continue;
      if (c.route.method !== method) {
        allow.push(c.route.method);
        continue;
      }
      const params: Record<string, string> = {};
      c.keys.forEach((k, i) => {
        params[k] = safeDecode(m[i + 1] ?? '');
      });
      return { kind: 'found', route: c.route, params };
    }
    return allow.length > 0 ? { kind: 'method', allow } : { kind: 'none' };
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
