/**
 * Matches a method and path against API Gateway style route paths the way API Gateway does:
 * literal segments win over `{param}` segments, which win over a greedy `{proxy+}`.
 */
export interface RouteMatch<T> {
  route: T;
  routePath: string;
  params: Record<string, string>;
}

interface Compiled<T> {
  route: T;
  method: string;
  path: string;
  segments: string[];
  score: number[];
}

export class Router<T> {
  /**
   * Routes by their first segment when it is a literal, so a request compares itself with the
   * few routes under its first segment instead of every route of the app (a linear scan of a few
   * hundred routes, each allocating its params, was 3% of a read's CPU in the local runtime).
   */
  private readonly byFirst = new Map<string, Compiled<T>[]>();
  /** Routes whose first segment is a parameter (or that have none): candidates for every path. */
  private readonly anyFirst: Compiled<T>[] = [];

  add(method: string, path: string, route: T): void {
    const segments = path.split('/').filter(Boolean);
    const score = segments.map((s) => (s.endsWith('+}') ? 0 : s.startsWith('{') ? 1 : 2));
    const compiled = { route, method, path, segments, score };
    const first = segments[0];
    if (first === undefined || first.startsWith('{')) this.anyFirst.push(compiled);
    else {
      const bucket = this.byFirst.get(first);
      if (bucket) bucket.push(compiled);
      else this.byFirst.set(first, [compiled]);
    }
  }

  match(method: string, path: string): RouteMatch<T> | { methodNotAllowed: true } | undefined {
    const parts = path
      .split('/')
      .filter(Boolean)
      .map((p) => {
        if (!p.includes('%')) return p;
        try {
          return decodeURIComponent(p);
        } catch {
          return p;
        }
      });
    let best: { compiled: Compiled<T>; params: Record<string, string> } | undefined;
    let pathMatched = false;
    for (const candidates of [parts[0] === undefined ? undefined : this.byFirst.get(parts[0]), this.anyFirst]) {
      for (const compiled of candidates ?? []) {
        const params = matchSegments(compiled.segments, parts);
        if (!params) continue;
        pathMatched = true;
        if (compiled.method !== method) continue;
        if (!best || compareScore(compiled.score, best.compiled.score) > 0) best = { compiled, params };
      }
    }
    if (best) return { route: best.compiled.route, routePath: best.compiled.path, params: best.params };
    return pathMatched ? { methodNotAllowed: true } : undefined;
  }
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.endsWith('+}')) {
      if (i >= parts.length) return undefined;
      params[segment.slice(1, -2)] = parts.slice(i).join('/');
      return params;
    }
    const part = parts[i];
    if (part === undefined) return undefined;
    if (segment.startsWith('{')) params[segment.slice(1, -1)] = part;
    else if (segment !== part) return undefined;
  }
  return segments.length === parts.length ? params : undefined;
}

function compareScore(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? -1) - (b[i] ?? -1);
    if (diff) return diff;
  }
  return 0;
}
