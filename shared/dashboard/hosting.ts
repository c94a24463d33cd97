/**
 * How the static dashboard is served, defined once for the local runtime (shared/local/
 * dashboard-static.ts) and CloudFront (lib/constructs/dashboard-hosting.ts): security headers,
 * cache rules and content types. Pure data and functions; no I/O.
 */

/**
 * The app loads nothing from anywhere else: scripts, styles, fonts and images are its own files.
 * `style-src 'unsafe-inline'` is for the component library's style attributes and its CSS-variable
 * style tag (no script is ever inline). `connect-src` adds the API's origin when it is another one
 * (API Gateway's address behind CloudFront).
 */
export function contentSecurityPolicy(apiOrigin?: string): string {
  const connect = ["'self'", ...(apiOrigin ? [apiOrigin] : [])].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers on every dashboard answer. `no-referrer`: the sign-in page's address carries the link's token. */
export function securityHeaders(apiOrigin?: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(apiOrigin),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  };
}

/** index.html and config.json change with each deploy; the bundler's hashed assets never do. */
export function cacheControl(path: string): string {
  if (path.endsWith('.html') || path.endsWith('/config.json')) return 'no-cache';
  if (/\/assets\/[^/]+-[A-Za-z0-9_-]{6,}\.[a-z0-9]+$/.test(path)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  txt: 'text/plain; charset=utf-8',
  webmanifest: 'application/manifest+json',
};

export const contentTypeOf = (path: string) => TYPES[/\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/** A client route (`/dashboard/products/new`) has no file extension: the app's index.html answers it. */
export const isClientRoute = (path: string) => !/\.[A-Za-z0-9]+$/.test(path.split('/').pop() ?? '');

/** What the app reads at start to find the API. */
export const dashboardConfig = (apiBaseUrl: string) => ({ apiBaseUrl: apiBaseUrl.replace(/\/+$/, '') });
