import type { AnyOperation, CorsPolicy } from './operation';

export type { CorsPolicy };

/**
 * Cross-origin access of a public route, declared once on its operation (`cors: ANY_ORIGIN`) and
 * read by both the function's pipeline (Lambda and the local runtime run the same one) and the CDK
 * stack. A declared route answers the browser's preflight (`OPTIONS`, 204) and carries
 * `Access-Control-Allow-Origin` on every answer, a 4xx or 429 included, so a page on another site
 * can show why a request was refused. Routes without the declaration, key-authenticated ones
 * above all, have no `OPTIONS` route at all: a browser on another origin never gets past the
 * preflight, and a simple request's answer carries no header the browser would accept.
 */
/**
 * Any origin, no credentials: for public routes a page on the seller's own site calls (form read
 * and signup, review submission, survey answer, licence checks). No cookie or key rides along, so
 * `*` gives another site nothing it could not get with curl.
 */
export const ANY_ORIGIN: CorsPolicy = { allowHeaders: ['content-type'], exposeHeaders: ['retry-after'], maxAgeSeconds: 600 };

/** Headers every answer of a declared operation carries. */
export const corsHeaders = (policy: CorsPolicy): Record<string, string> => ({
  'access-control-allow-origin': '*',
  ...(policy.exposeHeaders.length ? { 'access-control-expose-headers': policy.exposeHeaders.join(', ') } : {}),
});

export interface PreflightRoute {
  path: string;
  /** The methods declared on the path with `cors` (the preflight's `Access-Control-Allow-Methods`). */
  methods: string[];
  policy: CorsPolicy;
}

/** One preflight route per path that has at least one operation declared with `cors`. */
export function preflightRoutes(operations: AnyOperation[]): PreflightRoute[] {
  const byPath = new Map<string, PreflightRoute>();
  for (const operation of operations) {
    if (!operation.cors) continue;
    const route = byPath.get(operation.path) ?? { path: operation.path, methods: [], policy: operation.cors };
    route.methods.push(operation.method);
    route.policy = mergePolicies(route.policy, operation.cors);
    byPath.set(operation.path, route);
  }
  return [...byPath.values()];
}

/** The preflight's answer headers for a path. */
export const preflightHeaders = (route: PreflightRoute): Record<string, string> => ({
  ...corsHeaders(route.policy),
  'access-control-allow-methods': [...route.methods, 'OPTIONS'].join(', '),
  'access-control-allow-headers': route.policy.allowHeaders.join(', '),
  'access-control-max-age': String(route.policy.maxAgeSeconds),
});

const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];
const mergePolicies = (a: CorsPolicy, b: CorsPolicy): CorsPolicy =>
  a === b
    ? a
    : {
        allowHeaders: union(a.allowHeaders, b.allowHeaders),
        exposeHeaders: union(a.exposeHeaders, b.exposeHeaders),
        maxAgeSeconds: Math.min(a.maxAgeSeconds, b.maxAgeSeconds),
      };

/** The route key API Gateway and the local runtime give a preflight. */
export const preflightRouteKey = (path: string) => `OPTIONS ${path}`;
