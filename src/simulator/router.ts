import type { SimRequest, SimResponse } from './http.js';

export type RouteKind = 'authenticated' | 'public' | 'admin';

export interface RouteDefinition<Ctx> {
  method: string;
  /** e.g. "/api/v1/sites/:id/articles/:slug/"; the stats and fault key is `${method} ${pattern}`. */
  pattern: string;
  kind: RouteKind;
  handler: (req: SimRequest, ctx: Ctx) => SimResponse | Promise<SimResponse>;
}

export interface CompiledRoute<Ctx> extends RouteDefinition<Ctx> {
  key: string;
  regex: RegExp;
  names: string[];
}

export function compileRoutes<Ctx>(routes: Array<RouteDefinition<Ctx>>): Array<CompiledRoute<Ctx>> {
  return routes.map((route) => {
    const names: string[] = [];
    const source = route.pattern
      .split('/')
      .map((segment) => {
        if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(segment.slice(1));
        return '([^/]+)';
      })
      .join('/');
    return { ...route, key: `${route.method} ${route.pattern}`, regex: new RegExp(`^${source}$`), names };
  });
}

export type RouteMatch<Ctx> =
  | { kind: 'found'; route: CompiledRoute<Ctx>; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[]; route: CompiledRoute<Ctx> }
  | { kind: 'not-found' };

export function matchRoute<Ctx>(routes: Array<CompiledRoute<Ctx>>, method: string, path: string): RouteMatch<Ctx> {
  const byPath = routes.filter((route) => route.regex.test(path));
  // HEAD is answered like GET (without a body), as any HTTP server does for feeds.
  const wanted = method === 'HEAD' ? 'GET' : method;
  const route = byPath.find((candidate) => candidate.method === wanted);
  if (!route) {
    const first = byPath[0];
    return first
      ? { kind: 'method-not-allowed', allow: byPath.map((r) => r.method), route: first }
      : { kind: 'not-found' };
  }
  const values = route.regex.exec(path) ?? [];
  const params: Record<string, string> = {};
  route.names.forEach((name, i) => {
    const raw = values[i + 1] ?? '';
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      params[name] = raw;
    }
  });
  return { kind: 'found', route, params };
}
