import type { Route } from './context';

/**
 * Path matching for the handful of routes the broker has: `/orders/:order_id` style patterns,
 * compiled once. Knows the difference between "no such path" (404) and "path exists, method
 * does not" (405 with Allow), which clients debugging a PUT-vs-PATCH mix-up appreciate.
 */

interface Compiled {
  readonly route: Route;
  readonly re: RegExp;
  readonly keys: readonly string[];
}

export type Match =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: 'method'; readonly allow: readonly string[] }
  | { readonly kind: 'none' };

export class Router {
  private readonly compiled: Compiled[];

  constructor(routes: readonly Route[]) {
    this.compiled = routes.map((route) => {
      const keys: string[] = [];
      const pattern = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([a-z_]+)/g, (_, k: string) => {
        keys.push(k);
        return '([^/]+)';
      });
      return { route, re: new RegExp(`^${pattern}/?$`), keys };
    });
  }

  match(method: string, path: string): Match {
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
